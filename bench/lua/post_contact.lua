-- POST /api/v1/crm/contacts with a fresh realistic contact each time.
dofile(os.getenv("BENCH_LUA") .. "/report.lua")
dofile(os.getenv("BENCH_LUA") .. "/contact_body.lua")
local headers = {}

function init(args)
  math.randomseed(os.time() + tid * 7919)
  headers["Authorization"] = bench_auth()
  headers["Content-Type"] = "application/json"
end

function request()
  return wrk.format("POST", "/api/v1/crm/contacts", headers, contact_body())
end
