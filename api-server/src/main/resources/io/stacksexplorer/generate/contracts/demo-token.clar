;; demo-token: a SIP-010 fungible token for the explorer demo chain
(define-fungible-token demo-token)

(define-constant contract-owner tx-sender)
(define-constant err-owner-only (err u100))
(define-constant err-not-token-owner (err u101))

(define-data-var token-uri (optional (string-utf8 256)) (some u"https://example.com/demo-token.json"))

(define-public (transfer (amount uint) (sender principal) (recipient principal) (memo (optional (buff 34))))
  (begin
    (asserts! (is-eq tx-sender sender) err-not-token-owner)
    (try! (ft-transfer? demo-token amount sender recipient))
    (print {action: "transfer", amount: amount, memo: memo, recipient: recipient, sender: sender})
    (ok true)))

(define-public (mint (amount uint) (recipient principal))
  (begin
    (asserts! (is-eq tx-sender contract-owner) err-owner-only)
    (try! (ft-mint? demo-token amount recipient))
    (print {action: "mint", amount: amount, recipient: recipient})
    (ok true)))

(define-public (burn (amount uint))
  (begin
    (try! (ft-burn? demo-token amount tx-sender))
    (print {action: "burn", amount: amount, sender: tx-sender})
    (ok true)))

(define-read-only (get-name) (ok "Demo Token"))
(define-read-only (get-symbol) (ok "DEMO"))
(define-read-only (get-decimals) (ok u6))
(define-read-only (get-balance (who principal)) (ok (ft-get-balance demo-token who)))
(define-read-only (get-total-supply) (ok (ft-get-supply demo-token)))
(define-read-only (get-token-uri) (ok (var-get token-uri)))

(ft-mint? demo-token u1000000000000000 contract-owner)
