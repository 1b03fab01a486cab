-- wrk script: POST /v1/check with one credit-card value (bench/http/run.sh).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"type": "credit-card", "values": ["4111 1111 1111 1111"], "stage": "final"}'
