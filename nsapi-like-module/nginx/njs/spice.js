// The SPICE njs probe: nginx's JavaScript module (js_content) answering the canonical page.
//
// The page is a string built once, when nginx loads this file (spice_page.js is generated from the
// canonical page by the build); each request only sets the headers and returns it. What it costs over
// the static file and the C module is what njs's request object and its call into JavaScript cost.
//
//   js_path  DIRECTORY_OF_THESE_FILES;
//   js_import spice from spice.js;
//   location = /spice/njs { js_content spice.answer; }
import canonical from 'spice_page.js';

const page = canonical.page;
const contentType = canonical.contentType;

function answer(r) {
    if (r.method !== 'GET' && r.method !== 'HEAD') {
        r.headersOut['Allow'] = 'GET, HEAD';
        r.return(405);
        return;
    }
    r.headersOut['Content-Type'] = contentType;
    // r.return sets the Content-Length from the string, and sends no body to a HEAD request.
    r.return(200, page);
}

export default { answer };
