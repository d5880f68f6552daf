-- wrk script: POST /item/{id}/locations replacing an item's set with 5 existing locations, items
-- first..last in a scattered order. Used to measure the item write route's CPU per request:
--   wrk -t1 -c64 -d10s -s tank/wrk/replace-locations.lua http://127.0.0.1:8080 -- postgres 1 500000 100000
-- Arguments: storage, first item id, last item id, highest location id. Requests are built once
-- in init (10 000 of them), so wrk spends its CPU sending, not formatting.
local requests = {}
local counter = 0

function init(args)
  local storage, first, last, locations = args[1], tonumber(args[2]), tonumber(args[3]), tonumber(args[4])
  if storage == nil or first == nil or last == nil or locations == nil or last < first then
    error("usage: -- <storage> <first item id> <last item id> <highest location id>")
  end
  local count = last - first + 1
  local headers = { ["Content-Type"] = "application/json" }
  for i = 1, math.min(count, 10000) do
    local id = first + (i * 7919) % count
    local ids = {}
    for k = 1, 5 do ids[k] = 1 + (i * 104729 + k * 7907) % locations end
    local body = '{"LocationIds":[' .. table.concat(ids, ",") .. ']}'
    requests[i] = wrk.format("POST", "/item/" .. id .. "/locations?storage=" .. storage, headers, body)
  end
end

function request()
  counter = counter % #requests + 1
  return requests[counter]
end
