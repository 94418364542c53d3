/// The one place that decides what of a user's secrets may be shown: every report format, every
/// message on standard error, every line `artwork` and `inspect` print and the command line a
/// SARIF report records pass through here (docs/security.md, "It cannot make hlscheck echo
/// credentials").
///
/// What is secret: the userinfo of a URL (`https://user:password@host/…`, sent as basic auth),
/// every query value of a URL (`?Signature=…&Key-Pair-Id=…`: which parameter of a signed URL
/// is the token depends on the CDN, so none is shown), and the value of every `--header`
/// (`Authorization: Bearer …`). Each becomes `***`; the host, path, parameter names and header
/// names stay, so a report still says which resource and which header it was about.
package enum CredentialRedaction {
    /// What replaces a secret.
    package static let marker = "***"

    /// `text` with the userinfo and the query values of every `scheme://…` URL in it replaced
    /// by `***`. URLs are found anywhere in the text (a message, a whole text report), also as a
    /// JSON encoder that escapes slashes writes them (`http:\/\/`). One pass over the bytes.
    package static func redact(_ text: String) -> String {
        guard text.contains("://") || text.contains(":\\/\\/"), text.contains("@") || text.contains("?") else {
            return text
        }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        let marker = Array(Self.marker.utf8)
        var index = 0
        while index < bytes.count {
            let separator = separatorLength(bytes, at: index)
            guard separator > 0 else {
                output.append(bytes[index])
                index += 1
                continue
            }
            output.append(contentsOf: bytes[index..<(index + separator)])
            index += separator
            // The authority runs to the next "/", "?", "#" or a byte no URL holds in running text;
            // its userinfo ends at its last "@" (RFC 3986 §3.2.1).
            var end = index
            var at: Int?
            while end < bytes.count, !endsAuthority(bytes[end]) {
                if bytes[end] == UInt8(ascii: "@") { at = end }
                end += 1
            }
            if let at {
                output.append(contentsOf: marker)
                index = at
            }
            // The path, up to the query.
            while index < bytes.count, !endsURL(bytes, at: index), bytes[index] != UInt8(ascii: "?"),
                bytes[index] != UInt8(ascii: "#"), separatorLength(bytes, at: index) == 0
            {
                output.append(bytes[index])
                index += 1
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "?") else { continue }
            // The query: each `name=value` keeps its name; a component without "=" is a name.
            output.append(bytes[index])
            index += 1
            var inValue = false
            while index < bytes.count, !endsURL(bytes, at: index), bytes[index] != UInt8(ascii: "#") {
                let byte = bytes[index]
                if byte == UInt8(ascii: "&") {
                    inValue = false
                    output.append(byte)
                } else if inValue {
                    // Skipped: the value is the secret.
                } else if byte == UInt8(ascii: "=") {
                    inValue = true
                    output.append(byte)
                    output.append(contentsOf: marker)
                } else {
                    output.append(byte)
                }
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A URI reference as a remote playlist writes it (`video.m3u8?sig=…`, relative or not)
    /// with its query values hidden as `redact` hides those of a URL: the query a server put in
    /// a playlist it serves is as much a token as the one the user typed.
    package static func redactReference(_ reference: String) -> String {
        if reference.contains("://") { return redact(reference) }
        guard let question = reference.firstIndex(of: "?") else { return reference }
        let fragment = reference[question...].firstIndex(of: "#") ?? reference.endIndex
        let query = reference[reference.index(after: question)..<fragment].split(
            separator: "&", omittingEmptySubsequences: false
        ).map { pair in pair.firstIndex(of: "=").map { pair[...$0] + marker } ?? String(pair) }
        return reference[...question] + query.joined(separator: "&") + reference[fragment...]
    }

    /// `arguments` as a report may record them: every URL redacted as `redact` does, and the
    /// value of every `--header` (`--header 'Name: value'`, `--header='Name: value'`) replaced
    /// by `***`, its name kept.
    package static func redactArguments(_ arguments: [String]) -> [String] {
        var redacted: [String] = []
        redacted.reserveCapacity(arguments.count)
        var headerFollows = false
        for argument in arguments {
            if headerFollows {
                redacted.append(redactHeader(argument))
                headerFollows = false
            } else if argument == "--header" {
                redacted.append(argument)
                headerFollows = true
            } else if argument.hasPrefix("--header=") {
                redacted.append("--header=" + redactHeader(String(argument.dropFirst("--header=".count))))
            } else {
                redacted.append(redact(argument))
            }
        }
        return redacted
    }

    /// "Name: value" → "Name: ***"; text without a colon is all value.
    package static func redactHeader(_ header: String) -> String {
        guard let colon = header.firstIndex(of: ":") else { return marker }
        return header[...colon] + " " + marker
    }

    private static func separatorLength(_ bytes: [UInt8], at index: Int) -> Int {
        guard bytes[index] == UInt8(ascii: ":") else { return 0 }
        let plain: [UInt8] = Array("://".utf8), escaped: [UInt8] = Array(":\\/\\/".utf8)
        if bytes[index...].starts(with: plain) { return plain.count }
        if bytes[index...].starts(with: escaped) { return escaped.count }
        return 0
    }

    private static func endsAuthority(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: " "),
            UInt8(ascii: "\t"),
            UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"),
            UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: ","):
            return true
        default:
            return false
        }
    }

    /// Where a URL in running text ends: at a byte no URL holds unescaped (white space, a quote,
    /// an angle bracket, a control byte), at a backslash that does not escape a slash (a JSON
    /// string's `\"`), or at punctuation that closes a sentence or a parenthesis (`: `, `, `, `)`,
    /// `.` followed by white space or the end). That punctuation is the only byte of a value it
    /// can leave shown; a value is never cut short anywhere else.
    private static func endsURL(_ bytes: [UInt8], at index: Int) -> Bool {
        let byte = bytes[index]
        switch byte {
        case 0..<0x21, 0x7F, UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"):
            return true
        case UInt8(ascii: "\\"):
            return !(index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"))
        case UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "."),
            UInt8(ascii: ";"):
            return index + 1 == bytes.count || bytes[index + 1] <= 0x20
        default:
            return false
        }
    }
}
