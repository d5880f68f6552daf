-- wrk script for script/bench --crosscheck: GETs spread over rows that exist, so wrk reads what
-- the runner reads instead of one hot key.
--   wrk -t1 -c64 -d10s -s tank/wrk/ids.lua http://127.0.0.1:18080 -- '/Author/Get?id={id}&storage=postgres' 1 5000
-- The path template's {id} is replaced by ids first..last in a scattered order (a prime stride),
-- so consecutive requests do not hit neighbouring rows. The requests are built once in init:
-- formatting one per call in Lua would cost wrk CPU that, on shared cores, the service then lacks.
local requests = {}
local counter = 0

function init(args)
  local template, first, last = args[1], tonumber(args[2]), tonumber(args[3])
  if template == nil or first == nil or last == nil or last < first then
    error("usage: -- <path with {id}> <first id> <last id>")
  end
  local count = last - first + 1
  for i = 1, math.min(count, 10000) do
    local id = first + (i * 7919) % count
    requests[i] = wrk.format("GET", (template:gsub("{id}", tostring(id))))
  end
end

function request()
  counter = counter % #requests + 1
  return requests[counter]
end
