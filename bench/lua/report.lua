-- Shared by every scenario script: after the run, one machine-readable line for the harness.
-- errors = socket errors (connect, read, write, timeout) + responses with a status >= 400.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests":%d,"duration_us":%d,"p50_us":%.0f,"p99_us":%.0f,"max_us":%.0f,"errors":%d,"status_errors":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    e.connect + e.read + e.write + e.timeout + e.status, e.status))
end

-- Each thread gets a number, so generated values (emails) are unique across threads.
local next_thread = 1
function setup(thread)
  thread:set("tid", next_thread)
  next_thread = next_thread + 1
end

function bench_auth()
  return "Bearer " .. os.getenv("BENCH_KEY")
end

function bench_lines(path)
  local lines = {}
  for line in io.lines(path) do
    if line ~= "" then lines[#lines + 1] = line end
  end
  return lines
end
