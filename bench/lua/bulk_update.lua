-- POST /api/v1/issues/bulk-update of 500 tasks at a time: consecutive batches of BENCH_IDS (task ids),
-- each call flipping the batch's priority, so every call really writes 500 rows and 500 events.
dofile(os.getenv("BENCH_LUA") .. "/report.lua")
local bodies = {}
local headers = {}
local n = 0

function init(args)
  local ids = bench_lines(os.getenv("BENCH_IDS"))
  headers["Authorization"] = bench_auth()
  headers["Content-Type"] = "application/json"
  local batches = math.floor(#ids / 500)
  for b = 0, batches - 1 do
    local quoted = {}
    for i = 1, 500 do quoted[i] = '"' .. ids[b * 500 + i] .. '"' end
    local list = table.concat(quoted, ",")
    bodies[#bodies + 1] = '{"issueIds":[' .. list .. '],"patch":{"priority":"high"}}'
    bodies[#bodies + 1] = '{"issueIds":[' .. list .. '],"patch":{"priority":"low"}}'
  end
end

function request()
  n = n + 1
  return wrk.format("POST", "/api/v1/issues/bulk-update", headers, bodies[(n - 1) % #bodies + 1])
end
