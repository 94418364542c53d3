// How a URI in a stream on disk names a file (RFC 8216 §4.1: URI lines and URI attributes are
// URIs, RFC 3986). One mapping, used by everything that opens or judges a local file a playlist
// refers to (playlists, segments, keys, EXT-X-MAP), so that confinement judges the very path
// that is then opened.
//
// - A query or fragment is not part of the file's name: `seg.ts?v=1` is `seg.ts`.
// - Percent-encoding denotes the decoded bytes (RFC 3986 §2.1): `lo%20001.ts` is `lo 001.ts`.
// - An escape that decodes to '/' or NUL (`..%2Fsecret`, `a%00.ts`) is refused: it would let one
//   path segment climb out of its folder or cut the path short.
// - Invalid percent-encoding (`100%.ts`, a '%' not followed by two hex digits) leaves its path
//   segment literal.
// - When the name the URI means does not exist but a file named exactly as written does (a tool
//   wrote `a%20b.ts` on disk), that file is read; when neither exists, the failure names both.
// - A path the user typed is not a URI: `uriReference(forPath:)` encodes it into one whose
//   mapping here is exactly that path (docs/security.md, "Paths the user gives are not URIs").

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The local file a URI names (see the file comment).
package struct LocalFileName: Sendable, Hashable {
    /// The path to open: the first of `candidates` that exists, else the first.
    package var path: String
    /// Every name tried, the URI's meaning first and then the text as written when it differs.
    package var candidates: [String]
    /// Why the URI names no file at all (an escape decoding to '/' or NUL); `path` is then not
    /// to be opened.
    package var refusal: String?

    /// The file `uri` names: a path or a `file://` URL (the caller has told remote URLs apart).
    package init(uri: String) {
        // A plain path, the common case (a stream's thousands of segment names): without a ':'
        // there is no scheme, and without '?', '#' or '%' no query, fragment or escape — the
        // name is the URI as written.
        let isPlain = uri.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains {
                $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "%")
            }
        }
        if isPlain == true {
            path = uri
            candidates = [uri]
            refusal = nil
            return
        }
        // A URI with a scheme names a file only when the scheme is `file` (RFC 3986 §3.1): a
        // `javascript:` or `data:` URI is no relative path, and "no such file" would send the
        // user looking for one. A file whose name starts like a scheme is written `./name:x`.
        if !uri.hasPrefix("file://"), let scheme = Self.scheme(of: uri), scheme != "file" {
            path = uri
            candidates = [uri]
            refusal =
                scheme == "http" || scheme == "https"
                ? "an \(scheme) URL is not a local file, and this check fetches nothing from the network"
                : "\(scheme): is not a URI scheme hlscheck reads (it reads local files, file://, http:// and https:// URLs)"
            return
        }
        let literal = uri.hasPrefix("file://") ? String(uri.dropFirst("file://".count)) : uri
        // By bytes ('?' and '#' are ASCII, never inside a multi-byte character): a stream's
        // thousands of plain names are not walked character by character.
        let end = literal.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? literal.endIndex
        // No escape (the common case): the path is the text before any query or fragment.
        guard literal[..<end].utf8.contains(UInt8(ascii: "%")) else {
            let meant = String(literal[..<end])
            refusal = nil
            candidates = meant == literal ? [meant] : [meant, literal]
            path = candidates.count > 1 && !Self.exists(meant) && Self.exists(literal) ? literal : meant
            return
        }
        // Each path segment on its own: an invalid escape leaves only its own segment literal, so
        // a folder encoded by `uriReference(forPath:)` ("Stream %231") is decoded whatever name
        // the playlist writes after it ("100%.ts").
        let written = literal[..<end].split(separator: "/", omittingEmptySubsequences: false)
        var decoded: [String] = []
        var refusal: String?
        for segment in written {
            switch Self.percentDecoded(segment) {
            case .decoded(let name): decoded.append(name)
            case .literal: decoded.append(String(segment))
            case .refused(let reason):
                refusal = refusal ?? reason
                decoded.append(String(segment))
            }
        }
        let meant = refusal == nil ? decoded.joined(separator: "/") : String(literal[..<end])
        self.refusal = refusal
        guard refusal == nil, meant != literal else {
            candidates = [meant]
            path = meant
            return
        }
        // As written: the name the playlist wrote, in the folders the decoded path names where
        // they exist (a stream in "Stream #1/" whose tool wrote the file "a%20b.ts" to disk).
        var asWritten = ""
        for index in written.indices {
            let isLast = index == written.count - 1
            let name = isLast ? String(written[index]) + literal[end...] : String(written[index])
            let folder = decoded[index]
            let chosen = !isLast && folder != name && Self.exists(asWritten + folder) ? folder : name
            asWritten += isLast ? chosen : chosen + "/"
        }
        candidates = meant == asWritten ? [meant] : [meant, asWritten]
        path = candidates.count > 1 && !Self.exists(meant) && Self.exists(asWritten) ? asWritten : meant
    }

    /// The inverse mapping: the URI reference (a relative or absolute path, no scheme) whose
    /// `LocalFileName` is exactly the file `path` — for a path the user gave (a command-line
    /// argument, a folder listing), which becomes the base that playlist URIs are resolved
    /// against (RFC 3986 §5.1). Every character of a file path is part of a name, so the ones
    /// resolution would read otherwise are percent-encoded: '%' (or a folder named `a%20b`
    /// would denote `a b`), '#' and '?' (or `Stream #1/` would start a fragment, `what?/` a
    /// query), and ':' in the first segment of a relative path (or `my:stream/` would be a
    /// scheme). A leading `//` (an authority to RFC 3986, the root folder to Linux) becomes `/`.
    /// Everything else stays as typed, so a plain path is its own URI reference.
    package static func uriReference(forPath path: String) -> String {
        var text = Substring(path)
        if text.hasPrefix("//") {
            text = text.drop { $0 == "/" }
            return "/" + uriReference(forPath: String(text))
        }
        guard text.contains(where: { $0 == "%" || $0 == "#" || $0 == "?" || $0 == ":" }) else { return path }
        let firstSegmentEnd = text.hasPrefix("/") ? text.startIndex : (text.firstIndex(of: "/") ?? text.endIndex)
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for index in text.indices {
            switch text[index] {
            case "%": result += "%25"
            case "#": result += "%23"
            case "?": result += "%3F"
            case ":" where index < firstSegmentEnd: result += "%3A"
            default: result.append(text[index])
            }
        }
        return result
    }

    /// Whether no candidate names anything in its folder (not even a dangling or looping link,
    /// whose reading says what the link does): the failure to read is then "no such file".
    package var isMissing: Bool { !Self.exists(path) }

    /// When no candidate exists: which names were tried, for a "no such file" message; nil when
    /// only the name as written was tried (nothing to explain).
    package var triedNames: String? {
        guard candidates.count > 1 else { return nil }
        return "tried '\(candidates[0])' (the URI's path, decoded) and '\(candidates[1])' (as written)"
    }

    /// The scheme a URI reference starts with, lowercased (RFC 3986 §3.1: a letter, then letters,
    /// digits, '+', '-', '.', before a ':' that comes before any '/', '?' or '#'); nil for a
    /// path. One letter is a Windows drive ("C:/…"), not a scheme, as `URIComponents` reads it.
    static func scheme(of uri: String) -> String? {
        var length = 0
        for byte in uri.utf8 {
            switch byte {
            case UInt8(ascii: ":"):
                return length > 1 ? String(uri.utf8.prefix(length))?.lowercased() : nil
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                length += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                guard length > 0 else { return nil }
                length += 1
            default:
                return nil
            }
        }
        return nil
    }

    private enum Decoding {
        case decoded(String)
        case literal
        case refused(String)
    }

    /// RFC 3986 §2.1. Literal when an escape is invalid; refused when one decodes to '/' or NUL,
    /// or the bytes are not UTF-8 (file names here are UTF-8 strings).
    private static func percentDecoded(_ text: Substring) -> Decoding {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return .decoded(String(text)) }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard iterator.count >= 2, let high = hexValue(iterator[iterator.startIndex]),
                let low = hexValue(iterator[iterator.startIndex + 1])
            else { return .literal }
            iterator = iterator.dropFirst(2)
            let value = high << 4 | low
            if value == UInt8(ascii: "/") {
                return .refused(
                    "its path holds %2F, an encoded '/', which no file name can contain; write the folder separator as '/'"
                )
            }
            if value == 0 {
                return .refused("its path holds %00, an encoded NUL byte, which no file name can contain")
            }
            bytes.append(value)
        }
        guard let name = String(validating: bytes, as: UTF8.self) else {
            return .refused("its percent-decoded path is not UTF-8 text; encode the file name's UTF-8 bytes")
        }
        return .decoded(name)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether `path` names an entry of its folder: a file, a folder, or a link — a dangling or
    /// looping link too, so that reading it says what the link does rather than "no such file".
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}
