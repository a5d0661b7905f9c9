;; vault-v0: STX time-lock vault (first attempt)
(define-map config (string-ascii 16) principal)
(define-data-var unlock-height uint u0)

(define-public (deposit (amount uint))
  (stx-transfer? amount tx-sender (as-contract tx-sender)))

;; bug: the admin is read before anybody set it
(define-constant admin (unwrap-panic (map-get? config "admin")))
