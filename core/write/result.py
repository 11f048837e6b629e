"""What both converters give back (:class:`Converted`): the written document's bytes,
its diagnostics, whether it succeeded, :attr:`Converted.report` (what the conversion
changed, ``core.inspect.conversion_report``), and :meth:`Converted.write`, which writes the
document to a file as the command line's ``-o`` does, by the same writer
(``core.write.destination``): never over the input or a file it references."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar

from urdf_sdf.core.base.diagnostics import Diagnostics
from urdf_sdf.core.inspect.conversion_report import ConversionReport, conversion_report
from urdf_sdf.core.inspect.resources import never_written
from urdf_sdf.core.write.destination import Input, write_file


class NothingToWrite(ValueError):
    """``write`` of a conversion that failed: its diagnostics say why."""


class Converted:
    """The base of ``urdf2sdf.Conversion`` and ``sdf2urdf.Conversion`` (dataclasses that
    declare the fields): ``xml`` (None when nothing was written), ``diagnostics`` and
    ``source`` (the input's ``core.base.model.Document``, None when it was not read);
    ``inputs``, what :meth:`write` never replaces (:meth:`read_from`)."""

    xml: bytes | None
    diagnostics: Diagnostics
    source: Any
    inputs: tuple[Input, ...] = ()
    # The format written: "sdf" or "urdf".
    target_format: ClassVar[str]

    @property
    def report(self) -> ConversionReport:
        """What this conversion converted one to one, carried, made explicit, repaired,
        approximated, renamed and dropped, with a one-line verdict (``--report``)."""
        return conversion_report(self.source, list(self.diagnostics), self.xml if self.ok
                                 else None, self.target_format)

    def read_from(self, result) -> None:
        """This conversion converted the loaded ``result``: its document is the source, and
        the files it was read from and those it references are never written
        (:func:`~urdf_sdf.core.inspect.resources.never_written`)."""
        self.source = result.document
        self.inputs = tuple(never_written(result))

    @property
    def ok(self) -> bool:
        """A document was written and no diagnostic is an error."""
        return self.xml is not None and not self.diagnostics.has_errors

    def write(self, path: str | os.PathLike) -> Path:
        """Write the document to ``path`` and return the path written, as the command
        line's ``-o`` writes (:func:`~urdf_sdf.core.write.destination.write_file`):
        atomically (a temporary file beside it, renamed into place: a reader never sees
        half a file, and a failed write leaves the previous file as it was), keeping a
        replaced file's mode, through a symbolic link to its target; a device or FIFO
        directly, a descriptor's name (``/dev/fd/N``) to that descriptor.

        Raises :class:`NothingToWrite` when the conversion failed (``ok`` is False);
        :class:`~urdf_sdf.core.write.destination.OutputIsInput` when ``path`` is the
        input, a file it includes or a file it references (a mesh, a texture, an included
        model's ``model.config``: the message names the file and the element referencing
        it); :class:`~urdf_sdf.core.write.destination.OutputError` for a directory, a
        block device or a folder that does not exist (all three are ``ValueError``);
        ``OSError`` when the file cannot be written."""
        if not self.ok or self.xml is None:
            errors = [d.format() for d in self.diagnostics if d.is_error]
            raise NothingToWrite("the conversion failed, there is nothing to write"
                                 + (f": {errors[0]}" if errors else ""))
        write_file(self.xml, Path(path), self.inputs, through_links=True)
        return Path(os.path.realpath(path))
