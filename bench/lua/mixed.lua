-- 90 % reads spread over the read scenarios, 10 % writes (half POST contact, half PATCH deal).
-- BENCH_READS: the read paths, separated by spaces; BENCH_IDS: deal ids for the PATCH.
dofile(os.getenv("BENCH_LUA") .. "/report.lua")
dofile(os.getenv("BENCH_LUA") .. "/contact_body.lua")
local reads = {}
local ids
local headers = {}
local json_headers = {}

function init(args)
  math.randomseed(os.time() + tid * 7919)
  for path in string.gmatch(os.getenv("BENCH_READS"), "%S+") do reads[#reads + 1] = path end
  ids = bench_lines(os.getenv("BENCH_IDS"))
  headers["Authorization"] = bench_auth()
  json_headers["Authorization"] = bench_auth()
  json_headers["Content-Type"] = "application/json"
end

function request()
  local r = math.random(100)
  if r <= 90 then
    return wrk.format("GET", reads[(r - 1) % #reads + 1], headers)
  elseif r <= 95 then
    return wrk.format("POST", "/api/v1/crm/contacts", json_headers, contact_body())
  end
  local body = string.format('{"probability":%d}', math.random(0, 100))
  return wrk.format("PATCH", "/api/v1/crm/deals/" .. ids[math.random(#ids)], json_headers, body)
end
