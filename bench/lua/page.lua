-- GET of a page of the workspace application, as a signed-in member (the session cookie in BENCH_COOKIE).
-- Each response's Server-Timing ("app;dur=<ms>") is kept per thread; done() adds the server time's p95 and the
-- count of responses without the header to the harness's line.
dofile(os.getenv("BENCH_LUA") .. "/report.lua")
wrk.headers["Cookie"] = "lnp_console=" .. os.getenv("BENCH_COOKIE")
wrk.headers["Accept"] = "text/html"

local threads = {}
local report_setup = setup
function setup(thread)
  report_setup(thread)
  threads[#threads + 1] = thread
end

timings = {}
untimed = 0
function response(status, headers, body)
  local timing = headers["Server-Timing"] or headers["server-timing"]
  local dur = timing and tonumber(string.match(timing, "dur=([%d.]+)"))
  if dur then
    timings[#timings + 1] = dur
  else
    untimed = untimed + 1
  end
end

local report_done = done
function done(summary, latency, requests)
  local all = {}
  local missing = 0
  for _, thread in ipairs(threads) do
    for _, dur in ipairs(thread:get("timings")) do all[#all + 1] = dur end
    missing = missing + thread:get("untimed")
  end
  table.sort(all)
  local p95 = #all > 0 and all[math.max(1, math.ceil(#all * 0.95))] or -1
  io.write(string.format('BENCH_SERVER {"server_p95_us":%.0f,"timed":%d,"untimed":%d}\n', p95 * 1000, #all, missing))
  report_done(summary, latency, requests)
end
