-- The lua probe on httpd (mod_lua, LuaMapHandler): the page is a string made once per Lua state (LuaScope
-- server keeps the states and LuaCodeCache forever the compiled file), and the handler writes it. Generated into
-- runtimes/target/lua/ from the canonical page (org.spice.page.Generate).
local PAGE = @PAGE_LITERAL@

function handle(r)
    r.content_type = "@PAGE_CONTENT_TYPE@"
    r.headers_out["Content-Length"] = "@PAGE_BYTES@"
    if not r.header_only then
        r:write(PAGE)
    end
    return apache2.OK
end
