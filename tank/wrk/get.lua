-- wrk script: GET /v0/entity in the key-value studies' style, over keys key0..key<KEYS-1>
-- (default 100000) that tank/wrk/put.lua wrote. Each wrk thread of put.lua walks the whole key space
-- in KEYS requests, so a put.lua run of at least threads × KEYS requests (wrk's default -t2: 200 000)
-- has written every key; a shorter one leaves keys that answer 404 here.
--   wrk -c64 -d60s -s tank/wrk/get.lua --latency http://127.0.0.1:8080
-- Each thread walks the key space from its own offset with a prime stride, so threads and
-- consecutive requests read different keys. STORAGE=<name> adds ?storage=. A key never put
-- answers 404 (wrk counts it as "Non-2xx"): run put.lua over the whole key space first.
local keys = tonumber(os.getenv("KEYS") or "100000")
local storage = os.getenv("STORAGE")
local suffix = (storage and storage ~= "") and ("&storage=" .. storage) or ""

local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

local counter = 0
function request()
  local n = (id * 7919 + counter * 104729) % keys
  counter = counter + 1
  return wrk.format("GET", "/v0/entity?id=key" .. n .. suffix)
end
