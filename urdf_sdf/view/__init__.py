"""``urdf-sdf view``: a robot (or two, overlaid) as an interactive 3D page.

* :mod:`.tessellate`: primitive shapes (box, cylinder, sphere, capsule, ellipsoid, plane)
  as triangle meshes;
* :mod:`.meshes`: mesh files (STL, OBJ, COLLADA, glTF) read with trimesh within a byte
  cap and thinned above a size limit; :mod:`.collada`: a COLLADA file through our
  hardened XML parser before pycollada reads it; :mod:`.companions`: the files a mesh
  names itself, read only from its own folder;
* :mod:`.scene`: the scene as plain data (frames, shapes, joints, the kinematic tree,
  differences) built from a loaded frame graph, so it can be tested without a browser;
* :mod:`.overlay`: the scene of two descriptions, with one highlight per difference
  `urdf-sdf diff` reports;
* :mod:`.motion`: forward kinematics precomputed per slider step;
* :mod:`.controls`: the joint slider and picker, the show/hide buttons;
* :mod:`.page`: the scene drawn with plotly as one self-contained HTML page;
* :mod:`.snapshot`: a PNG of that page, taken by headless Chromium.

plotly and trimesh come with the optional extra ``urdf-sdf[view]``; the command line
reaches these modules through a ``Later`` table and says what to install when they are
missing.
"""
