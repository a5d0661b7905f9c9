;; hello-world: my first Clarity contract
(define-data-var greeting (string-ascii 64) "Hello, Stacks!")
(define-data-var counter uint u0)

(define-public (say-hi (message (string-ascii 64)))
  (begin
    (var-set greeting message)
    (var-set counter (+ (var-get counter) u1))
    (print message)
    (ok (var-get counter))))

(define-read-only (get-greeting) (var-get greeting))
