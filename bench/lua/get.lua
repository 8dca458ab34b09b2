-- GET of the URL given to wrk, with the workspace key (harmless on the unauthenticated ceiling route).
dofile(os.getenv("BENCH_LUA") .. "/report.lua")
wrk.headers["Authorization"] = bench_auth()
