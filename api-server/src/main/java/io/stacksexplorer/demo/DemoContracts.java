package io.stacksexplorer.demo;

import java.util.List;

/**
 * Clarity sources and node-style ABI JSON of the demo chain's contracts. The sources read like real
 * contracts so that the explorer's source view has something to show; nothing executes them. The
 * chain generator ({@code io.stacksexplorer.generate}) deploys and calls the same contracts.
 */
public final class DemoContracts {

    /** A deployable contract: its name, source and the ABI the node would report for a successful deploy. */
    public record Contract(String name, String source, String abi) {
    }

    private DemoContracts() {
    }

    public static final Contract TOKEN = new Contract("demo-token", """
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
            """, abi(
            List.of(
                    fn("burn", "public", resp("bool", "uint128"), arg("amount", "uint128")),
                    fn("get-balance", "read_only", resp("uint128", "none"), arg("who", "principal")),
                    fn("get-decimals", "read_only", resp("uint128", "none")),
                    fn("get-name", "read_only", resp(ascii(10), "none")),
                    fn("get-symbol", "read_only", resp(ascii(4), "none")),
                    fn("get-token-uri", "read_only", resp(opt(utf8(256)), "none")),
                    fn("get-total-supply", "read_only", resp("uint128", "none")),
                    fn("mint", "public", resp("bool", "uint128"), arg("amount", "uint128"),
                            arg("recipient", "principal")),
                    fn("transfer", "public", resp("bool", "uint128"), arg("amount", "uint128"),
                            arg("sender", "principal"), arg("recipient", "principal"), arg("memo", opt(buff(34))))),
            List.of(variable("contract-owner", "principal", "constant"),
                    variable("err-not-token-owner", resp("none", "uint128"), "constant"),
                    variable("err-owner-only", resp("none", "uint128"), "constant"),
                    variable("token-uri", opt(utf8(256)), "variable")),
            List.of(), "[{\"name\":\"demo-token\"}]", "[]", "Clarity1"));

    public static final Contract NFT = new Contract("demo-nft", """
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
                (print u"burned \\u{1F525}")
                (ok true)))

            (define-read-only (get-last-token-id) (ok (var-get last-token-id)))
            (define-read-only (get-owner (id uint)) (ok (nft-get-owner? demo-nft id)))
            (define-read-only (get-token-uri (id uint)) (ok (some "ipfs://bafybeigdemopunks/metadata.json")))
            """, abi(
            List.of(
                    fn("burn", "public", resp("bool", "uint128"), arg("id", "uint128")),
                    fn("claim", "public", resp("uint128", "uint128")),
                    fn("get-last-token-id", "read_only", resp("uint128", "none")),
                    fn("get-owner", "read_only", resp(opt("principal"), "none"), arg("id", "uint128")),
                    fn("get-token-uri", "read_only", resp(opt(ascii(35)), "none"), arg("id", "uint128")),
                    fn("transfer", "public", resp("bool", "uint128"), arg("id", "uint128"),
                            arg("sender", "principal"), arg("recipient", "principal"))),
            List.of(variable("collection-size", "uint128", "constant"),
                    variable("contract-owner", "principal", "constant"),
                    variable("err-not-owner", resp("none", "uint128"), "constant"),
                    variable("err-sold-out", resp("none", "uint128"), "constant"),
                    variable("last-token-id", "uint128", "variable"),
                    variable("mint-price", "uint128", "constant")),
            List.of(), "[]", "[{\"name\":\"demo-nft\",\"type\":\"uint128\"}]", "Clarity2"));

    public static final Contract DEX = new Contract("demo-dex", """
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
            """, abi(
            List.of(
                    fn("add-liquidity", "public", resp("bool", "uint128"), arg("stx-amount", "uint128"),
                            arg("token-amount", "uint128")),
                    fn("get-amount-out", "read_only", "\"uint128\"", arg("amount-in", "uint128"),
                            arg("reserve-in", "uint128"), arg("reserve-out", "uint128")),
                    fn("get-reserves", "read_only",
                            resp(tuple(field("stx", "uint128"), field("token", "uint128")), "none")),
                    fn("swap-stx-for-token", "public", resp("uint128", "uint128"), arg("stx-in", "uint128"),
                            arg("min-token-out", "uint128")),
                    fn("swap-token-for-stx", "public", resp("uint128", "uint128"), arg("token-in", "uint128"),
                            arg("min-stx-out", "uint128"))),
            List.of(variable("err-slippage", resp("none", "uint128"), "constant"),
                    variable("err-zero-amount", resp("none", "uint128"), "constant"),
                    variable("fee-bps", "uint128", "constant"),
                    variable("reserve-stx", "uint128", "variable"),
                    variable("reserve-token", "uint128", "variable")),
            List.of(), "[]", "[]", "Clarity2"));

    public static final Contract REGISTRY = new Contract("name-registry", """
            ;; name-registry: first come, first served names, paid for by burning STX
            (define-constant registration-fee u2000000)
            (define-constant term-length u52560)
            (define-constant err-not-owner (err u403))
            (define-constant err-name-taken (err u409))

            (define-map names (string-ascii 48) {owner: principal, bio: (optional (string-utf8 64)), expires-at: uint})
            (define-map primary-names principal (string-ascii 48))

            (define-public (register (name (string-ascii 48)) (bio (optional (string-utf8 64))) (tags (list 4 (string-ascii 16))))
              (let ((expires-at (+ burn-block-height term-length)))
                (asserts! (is-none (map-get? names name)) err-name-taken)
                (try! (stx-burn? registration-fee tx-sender))
                (map-set names name {owner: tx-sender, bio: bio, expires-at: expires-at})
                (print {bio: bio, event: "name-registered", expires-at: expires-at, name: name, owner: tx-sender, tags: tags})
                (ok true)))

            (define-public (renew (name (string-ascii 48)))
              (let ((entry (unwrap! (map-get? names name) err-not-owner))
                    (result (if (is-eq (get owner entry) tx-sender)
                                (ok {expires-at: (+ (get expires-at entry) term-length), extended-by: (to-int term-length), name: name})
                                (err u403))))
                (map-set names name (merge entry {expires-at: (+ (get expires-at entry) term-length)}))
                (print result)
                (ok true)))

            (define-public (set-primary (name (string-ascii 48)))
              (let ((entry (unwrap! (map-get? names name) err-not-owner)))
                (asserts! (is-eq (get owner entry) tx-sender) err-not-owner)
                (map-set primary-names tx-sender name)
                (print tx-sender)
                (ok true)))

            (define-read-only (resolve (name (string-ascii 48))) (map-get? names name))
            (define-read-only (get-primary-name (who principal)) (map-get? primary-names who))
            """, abi(
            List.of(
                    fn("get-primary-name", "read_only", "{\"optional\":" + ascii(48) + "}",
                            arg("who", "principal")),
                    fn("register", "public", resp("bool", "uint128"), arg("name", ascii(48)),
                            arg("bio", opt(utf8(64))), arg("tags", "{\"list\":{\"type\":" + ascii(16)
                                    + ",\"length\":4}}")),
                    fn("renew", "public", resp("bool", "uint128"), arg("name", ascii(48))),
                    fn("resolve", "read_only", "{\"optional\":" + tuple(field("bio", opt(utf8(64))),
                            field("expires-at", "uint128"), field("owner", "principal")) + "}",
                            arg("name", ascii(48))),
                    fn("set-primary", "public", resp("bool", "uint128"), arg("name", ascii(48)))),
            List.of(variable("err-name-taken", resp("none", "uint128"), "constant"),
                    variable("err-not-owner", resp("none", "uint128"), "constant"),
                    variable("registration-fee", "uint128", "constant"),
                    variable("term-length", "uint128", "constant")),
            List.of("{\"name\":\"names\",\"key\":" + ascii(48) + ",\"value\":" + tuple(field("bio", opt(utf8(64))),
                            field("expires-at", "uint128"), field("owner", "principal")) + "}",
                    "{\"name\":\"primary-names\",\"key\":\"principal\",\"value\":" + ascii(48) + "}"),
            "[]", "[]", "Clarity1"));

    /** Deployed once with a bug (aborts) and again fixed under the same name. */
    static final String AIRDROP_NAME = "airdrop";

    static final String AIRDROP_BROKEN_SOURCE = """
            ;; airdrop: sends DEMO to early users
            (define-constant amount-per-user u250000000)
            (define-data-var claimed uint u0)

            (define-public (claim)
              (begin
                (var-set claimed (+ (var-get claimed) u1))
                (as-contract (contract-call? .demo-token transfer amount-per-user tx-sender tx-sender none))))

            ;; fund the contract at deploy time
            (try! (contract-call? .demo-token transfer u900000000000000000 tx-sender (as-contract tx-sender) none))
            """;

    static final Contract AIRDROP = new Contract(AIRDROP_NAME, """
            ;; airdrop: sends DEMO to early users (v2: funded after deployment)
            (define-constant amount-per-user u250000000)
            (define-constant err-already-claimed (err u409))
            (define-map claimed principal bool)

            (define-public (claim)
              (let ((user tx-sender))
                (asserts! (is-none (map-get? claimed user)) err-already-claimed)
                (map-set claimed user true)
                (as-contract (contract-call? .demo-token transfer amount-per-user tx-sender user none))))

            (define-read-only (has-claimed (who principal)) (is-some (map-get? claimed who)))
            """, abi(
            List.of(fn("claim", "public", resp("bool", "uint128")),
                    fn("has-claimed", "read_only", "\"bool\"", arg("who", "principal"))),
            List.of(variable("amount-per-user", "uint128", "constant"),
                    variable("err-already-claimed", resp("none", "uint128"), "constant")),
            List.of("{\"name\":\"claimed\",\"key\":\"principal\",\"value\":\"bool\"}"), "[]", "[]", "Clarity2"));

    /** A deploy whose top-level code fails at runtime: abort_by_response, never redeployed. */
    public static final String VAULT_NAME = "vault-v0";

    public static final String VAULT_SOURCE = """
            ;; vault-v0: STX time-lock vault (first attempt)
            (define-map config (string-ascii 16) principal)
            (define-data-var unlock-height uint u0)

            (define-public (deposit (amount uint))
              (stx-transfer? amount tx-sender (as-contract tx-sender)))

            ;; bug: the admin is read before anybody set it
            (define-constant admin (unwrap-panic (map-get? config "admin")))
            """;

    /** A deploy whose top-level STX transfer breaks the deployer's own post condition. */
    public static final String LAUNCHPAD_NAME = "launchpad";

    public static final String LAUNCHPAD_SOURCE = """
            ;; launchpad: token sale escrow, seeded with 5 STX at deploy time
            (define-constant seed-amount u5000000)
            (define-data-var raised uint u0)

            (define-public (contribute (amount uint))
              (begin
                (try! (stx-transfer? amount tx-sender (as-contract tx-sender)))
                (var-set raised (+ (var-get raised) amount))
                (ok (var-get raised))))

            (stx-transfer? seed-amount tx-sender (as-contract tx-sender))
            """;

    /** Small contracts users deploy now and then. */
    public static Contract hello(String name, int clarityVersion) {
        String source = """
                ;; %s: my first Clarity contract
                (define-data-var greeting (string-ascii 64) "Hello, Stacks!")
                (define-data-var counter uint u0)

                (define-public (say-hi (message (string-ascii 64)))
                  (begin
                    (var-set greeting message)
                    (var-set counter (+ (var-get counter) u1))
                    (print message)
                    (ok (var-get counter))))

                (define-read-only (get-greeting) (var-get greeting))
                """.formatted(name);
        return new Contract(name, source, abi(
                List.of(fn("get-greeting", "read_only", ascii(64)),
                        fn("say-hi", "public", resp("uint128", "none"), arg("message", ascii(64)))),
                List.of(variable("counter", "uint128", "variable"), variable("greeting", ascii(64), "variable")),
                List.of(), "[]", "[]", "Clarity" + clarityVersion));
    }

    // --- ABI JSON, in the node's shape ----------------------------------------------------------

    private static String abi(List<String> functions, List<String> variables, List<String> maps,
                              String fungibleTokens, String nonFungibleTokens, String clarityVersion) {
        return "{\"maps\":[" + String.join(",", maps) + "],\"epoch\":\"Epoch25\",\"functions\":["
                + String.join(",", functions) + "],\"variables\":[" + String.join(",", variables)
                + "],\"clarity_version\":\"" + clarityVersion + "\",\"fungible_tokens\":" + fungibleTokens
                + ",\"non_fungible_tokens\":" + nonFungibleTokens + "}";
    }

    private static String fn(String name, String access, String outputs, String... args) {
        return "{\"args\":[" + String.join(",", args) + "],\"name\":\"" + name + "\",\"access\":\"" + access
                + "\",\"outputs\":{\"type\":" + type(outputs) + "}}";
    }

    private static String arg(String name, String type) {
        return "{\"name\":\"" + name + "\",\"type\":" + type(type) + "}";
    }

    private static String variable(String name, String type, String access) {
        return "{\"name\":\"" + name + "\",\"type\":" + type(type) + ",\"access\":\"" + access + "\"}";
    }

    private static String field(String name, String type) {
        return arg(name, type);
    }

    /** Simple type names become JSON strings; composite types are already JSON. */
    private static String type(String type) {
        return type.startsWith("{") || type.startsWith("\"") ? type : "\"" + type + "\"";
    }

    private static String resp(String ok, String error) {
        return "{\"response\":{\"ok\":" + type(ok) + ",\"error\":" + type(error) + "}}";
    }

    private static String opt(String type) {
        return "{\"optional\":" + type(type) + "}";
    }

    private static String buff(int length) {
        return "{\"buffer\":{\"length\":" + length + "}}";
    }

    private static String ascii(int length) {
        return "{\"string-ascii\":{\"length\":" + length + "}}";
    }

    private static String utf8(int length) {
        return "{\"string-utf8\":{\"length\":" + length + "}}";
    }

    private static String tuple(String... fields) {
        return "{\"tuple\":[" + String.join(",", fields) + "]}";
    }
}
