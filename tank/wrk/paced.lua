-- wrk script for tank bench's rate check: the ids of ids.lua, sent at a constant total rate
-- instead of as fast as the connections allow, so a second generator can say whether a rate our
-- runner confirmed also holds under wrk.
--   wrk -t1 -c64 -d15s --latency -s tank/wrk/paced.lua http://127.0.0.1:18080 -- '/Author/Get?id={id}&storage=postgres' 1 5000 8000
-- The argument after ids.lua's three is the total rate (requests/s) over all of wrk's threads.
-- Each thread keeps a schedule of send times at threads/rate apart; wrk asks delay() before every
-- request, and gets the time left until the next free slot (0 when the schedule is behind: wrk
-- then sends at once, as fast as the connections allow, and the rate it reports shows the
-- shortfall). wrk truncates the delay to whole milliseconds, so a send may leave up to 1 ms
-- before its slot; the slots, one per request, still cap the rate. wrk measures latency from the
-- actual send, not from the slot: a late send is seen as a lower rate.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "ids.lua") -- init(args) builds the requests, request() hands them out

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } timespec_t;
  int clock_gettime(int clock_id, timespec_t *tp);
]]
local CLOCK_MONOTONIC = 1
local now_ts = ffi.new("timespec_t")

local function now_ms()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, now_ts)
  return tonumber(now_ts.tv_sec) * 1000 + tonumber(now_ts.tv_nsec) / 1e6
end

local interval_ms = 0
local next_ms = nil
local ids_init = init

function init(args)
  ids_init(args)
  local rate = tonumber(args[4])
  if rate == nil or rate <= 0 then
    error("usage: -- <path with {id}> <first id> <last id> <total rate per second> [wrk's -t]")
  end
  -- A thread's script does not see how many threads wrk runs: the command passes -t again as
  -- args[5] (default 1), and each thread takes its share of the rate.
  interval_ms = 1000 * (tonumber(args[5]) or 1) / rate
end

function delay()
  local now = now_ms()
  if next_ms == nil then next_ms = now end
  local wait = next_ms - now
  next_ms = next_ms + interval_ms
  if wait < 0 then return 0 end
  return wait
end
