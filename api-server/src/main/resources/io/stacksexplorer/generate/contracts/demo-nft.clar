;; demo-nft: a SIP-009 collection of 10,000 demo punks
(define-non-fungible-token demo-nft uint)

(define-constant contract-owner tx-sender)
(define-constant mint-price u10000000)
(define-constant collection-size u10000)
(define-constant err-not-owner (err u403))
(define-constant err-sold-out (err u300))

(define-data-var last-token-id uint u0)

(define-public (claim)
  (let ((id (+ (var-get last-token-id) u1)))
    (asserts! (<= id collection-size) err-sold-out)
    (try! (stx-transfer? mint-price tx-sender (as-contract tx-sender)))
    (try! (nft-mint? demo-nft id tx-sender))
    (var-set last-token-id id)
    (print {action: "mint", id: id, owner: tx-sender, uri: (some "ipfs://bafybeigdemopunks/metadata.json")})
    (ok id)))

(define-public (transfer (id uint) (sender principal) (recipient principal))
  (begin
    (asserts! (is-eq tx-sender sender) err-not-owner)
    (try! (nft-transfer? demo-nft id sender recipient))
    (print {action: "transfer", id: id, recipient: recipient, sender: sender})
    (ok true)))

(define-public (burn (id uint))
  (begin
    (asserts! (is-eq (some tx-sender) (nft-get-owner? demo-nft id)) err-not-owner)
    (try! (nft-burn? demo-nft id tx-sender))
    (print u"burned \u{1F525}")
    (ok true)))

(define-read-only (get-last-token-id) (ok (var-get last-token-id)))
(define-read-only (get-owner (id uint)) (ok (nft-get-owner? demo-nft id)))
(define-read-only (get-token-uri (id uint)) (ok (some "ipfs://bafybeigdemopunks/metadata.json")))
