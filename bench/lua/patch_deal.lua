-- PATCH /api/v1/crm/deals/{id} on a random seeded deal (BENCH_IDS: one deal id per line).
-- Only probability and description change, so any deal accepts it whatever its status.
dofile(os.getenv("BENCH_LUA") .. "/report.lua")
local ids
local headers = {}

function init(args)
  math.randomseed(os.time() + tid * 7919)
  ids = bench_lines(os.getenv("BENCH_IDS"))
  headers["Authorization"] = bench_auth()
  headers["Content-Type"] = "application/json"
end

function request()
  local body = string.format('{"probability":%d,"description":"Follow-up call %d"}', math.random(0, 100),
    math.random(100000))
  return wrk.format("PATCH", "/api/v1/crm/deals/" .. ids[math.random(#ids)], headers, body)
end
