"""What both converters give back (:class:`Converted`): the written document's bytes,
its diagnostics, whether it succeeded, :attr:`Converted.report` (what the conversion
changed, ``core.inspect.conversion_report``), and :meth:`Converted.write`, which writes the
document to a file atomically as the command line does (``core.write.atomic``)."""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, ClassVar

from urdf_sdf.core.base.diagnostics import Diagnostics
from urdf_sdf.core.inspect.conversion_report import ConversionReport, conversion_report
from urdf_sdf.core.write.atomic import write_atomically


class NothingToWrite(ValueError):
    """``write`` of a conversion that failed: its diagnostics say why."""


class Converted:
    """The base of ``urdf2sdf.Conversion`` and ``sdf2urdf.Conversion`` (dataclasses that
    declare the fields): ``xml`` (None when nothing was written), ``diagnostics`` and
    ``source`` (the input's ``core.base.model.Document``, None when it was not read)."""

    xml: bytes | None
    diagnostics: Diagnostics
    source: Any
    # The format written: "sdf" or "urdf".
    target_format: ClassVar[str]

    @property
    def report(self) -> ConversionReport:
        """What this conversion converted one to one, carried, made explicit, repaired,
        approximated, renamed and dropped, with a one-line verdict (``--report``)."""
        return conversion_report(self.source, list(self.diagnostics), self.xml if self.ok
                                 else None, self.target_format)

    @property
    def ok(self) -> bool:
        """A document was written and no diagnostic is an error."""
        return self.xml is not None and not self.diagnostics.has_errors

    def write(self, path: str | os.PathLike) -> Path:
        """Write the document to ``path`` and return the path written: atomically (a
        temporary file beside it, renamed into place: a reader never sees half a file,
        and a failed write leaves the previous file as it was), keeping a replaced
        file's mode, through a symbolic link to its target. A device or FIFO is written
        directly. Raises :class:`NothingToWrite` (a ``ValueError``) when the conversion
        failed (``ok`` is False) and ``OSError`` when the file cannot be written."""
        if not self.ok or self.xml is None:
            errors = [d.format() for d in self.diagnostics if d.is_error]
            raise NothingToWrite("the conversion failed, there is nothing to write"
                                 + (f": {errors[0]}" if errors else ""))
        target = Path(os.path.realpath(path))
        try:
            special = not stat.S_ISREG(os.stat(target).st_mode) and not target.is_dir()
        except FileNotFoundError:
            special = False
        if special:  # /dev/null, a FIFO: as `cat > FILE` would
            with open(target, "wb") as stream:
                stream.write(self.xml)
        else:
            write_atomically(self.xml, target)
        return target
