;; demo-dex: a constant-product STX/DEMO pool with a 0.3% fee
(define-constant err-slippage (err u201))
(define-constant err-zero-amount (err u202))
(define-constant fee-bps u30)

(define-data-var reserve-stx uint u0)
(define-data-var reserve-token uint u0)

(define-read-only (get-amount-out (amount-in uint) (reserve-in uint) (reserve-out uint))
  (let ((in-with-fee (* amount-in (- u10000 fee-bps))))
    (/ (* in-with-fee reserve-out) (+ (* reserve-in u10000) in-with-fee))))

(define-public (add-liquidity (stx-amount uint) (token-amount uint))
  (begin
    (try! (stx-transfer? stx-amount tx-sender (as-contract tx-sender)))
    (try! (contract-call? .demo-token transfer token-amount tx-sender (as-contract tx-sender) none))
    (var-set reserve-stx (+ (var-get reserve-stx) stx-amount))
    (var-set reserve-token (+ (var-get reserve-token) token-amount))
    (print {action: "add-liquidity", provider: tx-sender, stx-amount: stx-amount, token-amount: token-amount})
    (ok true)))

(define-public (swap-stx-for-token (stx-in uint) (min-token-out uint))
  (let ((sender tx-sender)
        (token-out (get-amount-out stx-in (var-get reserve-stx) (var-get reserve-token))))
    (asserts! (> stx-in u0) err-zero-amount)
    (asserts! (>= token-out min-token-out) err-slippage)
    (try! (stx-transfer? stx-in sender (as-contract tx-sender)))
    (try! (as-contract (contract-call? .demo-token transfer token-out tx-sender sender none)))
    (var-set reserve-stx (+ (var-get reserve-stx) stx-in))
    (var-set reserve-token (- (var-get reserve-token) token-out))
    (print {action: "swap-stx-for-token", amount-in: stx-in, amount-out: token-out, pool: (as-contract tx-sender),
            reserves: {stx: (var-get reserve-stx), token: (var-get reserve-token)}, sender: sender})
    (ok token-out)))

(define-public (swap-token-for-stx (token-in uint) (min-stx-out uint))
  (let ((sender tx-sender)
        (stx-out (get-amount-out token-in (var-get reserve-token) (var-get reserve-stx))))
    (asserts! (> token-in u0) err-zero-amount)
    (asserts! (>= stx-out min-stx-out) err-slippage)
    (try! (contract-call? .demo-token transfer token-in sender (as-contract tx-sender) none))
    (try! (as-contract (stx-transfer? stx-out tx-sender sender)))
    (var-set reserve-token (+ (var-get reserve-token) token-in))
    (var-set reserve-stx (- (var-get reserve-stx) stx-out))
    (print {action: "swap-token-for-stx", amount-in: token-in, amount-out: stx-out, pool: (as-contract tx-sender),
            reserves: {stx: (var-get reserve-stx), token: (var-get reserve-token)}, sender: sender})
    (ok stx-out)))

(define-read-only (get-reserves) (ok {stx: (var-get reserve-stx), token: (var-get reserve-token)}))
