[description]
The static fileset (scripts/spice fileset) at /spice/fileset/, served by Jetty's core ResourceHandler
from the directory in ${spice.fileset.dir}: the white paper's static workload.

[depend]
server

[xml]
etc/spice-fileset.xml
