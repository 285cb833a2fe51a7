[description]
SPICE hardening: GET and HEAD only in front of every context (405 otherwise), error pages without stacks.

[depend]
server

[xml]
etc/spice-hardening.xml
