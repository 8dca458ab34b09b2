-- POST of one fixed JSON body (BENCH_BODY) to the URL's path: the MCP tools/call scenario.
dofile(os.getenv("BENCH_LUA") .. "/report.lua")
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["Authorization"] = bench_auth()
wrk.headers["Content-Type"] = "application/json"
