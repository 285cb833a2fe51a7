-- The lua probe on nginx (lua-nginx-module, content_by_lua_block calling answer()): a module, so that the page is a
-- string made once per worker (conf/nginx/spice-lua.conf loads it once and keeps it in package.loaded) and the handler prints it. Generated into runtimes/target/lua/
-- from the canonical page (org.spice.page.Generate).
local PAGE = @PAGE_LITERAL@

local function answer()
    ngx.header["Content-Type"] = "@PAGE_CONTENT_TYPE@"
    ngx.header["Content-Length"] = "@PAGE_BYTES@"
    ngx.print(PAGE)
end

return { answer = answer }
