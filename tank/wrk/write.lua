-- wrk script: POST /write/<queue> with one fixed JSON message of 205 bytes, as the queue studies send.
--   wrk -t1 -c32 -d10s -s tank/wrk/write.lua http://127.0.0.1:8080/write/beanstalkd
local message = '{"id":"9f0c6a52-3d2e-4b8a-9c7e-1f2a3b4c5d6e","kind":"order.created","at":"2026-11-26T10:00:00Z",'
  .. '"payload":{"customer":"c-000123","items":[{"sku":"sku-0001","qty":2},{"sku":"sku-0002","qty":1}],"total":59}}'
wrk.method = "POST"
wrk.body = message
wrk.headers["Content-Type"] = "application/json"
