;; launchpad: token sale escrow, seeded with 5 STX at deploy time
(define-constant seed-amount u5000000)
(define-data-var raised uint u0)

(define-public (contribute (amount uint))
  (begin
    (try! (stx-transfer? amount tx-sender (as-contract tx-sender)))
    (var-set raised (+ (var-get raised) amount))
    (ok (var-get raised))))

(stx-transfer? seed-amount tx-sender (as-contract tx-sender))
