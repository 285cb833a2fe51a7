<?php
// The php-fpm and mod-php probes: the page as one constant, echoed. Generated into runtimes/target/php/ from the
// canonical page (org.spice.page.Generate); the opcache keeps the compiled script, constant included, in memory,
// so a request runs three statements. The Content-Length is sent, as every probe does, so that neither the
// server nor PHP's output buffer chooses between a length and chunks.
const SPICE_PAGE = @PAGE_LITERAL@;
header('Content-Type: @PAGE_CONTENT_TYPE@');
header('Content-Length: @PAGE_BYTES@');
echo SPICE_PAGE;
