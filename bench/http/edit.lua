-- wrk script: POST /v1/edit, one keystroke into a card number (bench/http/run.sh).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"type": "credit-card", "text": "4111 1111", "caret": 9, "replace": {"from": 9, "to": 9, "with": "1"}}'
