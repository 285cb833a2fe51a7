-- SPICE's script for wrk (wrk -s harness/wrk/wrk-spice.lua ...): a new connection per request, as SPICE's
-- HTTP/1.0 without keep-alive, and at the end one JSON line that `scripts/spice import wrk` reads (counts,
-- errors, latency in µs). wrk keeps no per-request log, so that line is all a SPICE import can have.
wrk.headers["Connection"] = "close"

done = function(summary, latency, requests)
   local points = {}
   for _, p in ipairs({50, 75, 90, 99, 99.9, 99.99}) do
      points[#points + 1] = string.format("[%g, %d]", p, latency:percentile(p))
   end
   local e = summary.errors
   io.write(string.format('{"spice_wrk": 1, "duration_us": %d, "requests": %d, "bytes": %d, '
      .. '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, '
      .. '"latency_us": {"mean": %.3f, "max": %d, "percentiles": [%s]}}\n',
      summary.duration, summary.requests, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
      latency.mean, latency.max, table.concat(points, ", ")))
end
