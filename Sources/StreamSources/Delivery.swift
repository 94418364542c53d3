/// How one resource travelled over HTTP, as the remote sources saw it: what the delivery rules
/// (docs/remote.md) judge. Only playlists and noteworthy segments (retried, redirected, failed)
/// are recorded, so a long stream's log stays small.
package struct DeliveryRecord: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case playlist, segment
    }

    /// The URI as the loader or the inspector asked for it (credentials included: redact before
    /// showing, see `CredentialRedaction`).
    package var uri: String
    package var kind: Kind
    /// The final HTTP status, nil when no response arrived.
    package var status: Int?
    /// The Content-Type of the final response, nil when absent.
    package var contentType: String?
    /// Every URL a redirect led to, in order (the last one answered).
    package var redirects: [String]
    /// Why earlier attempts were retried ("HTTP 503", "connection reset"), in order.
    package var retries: [String]
    /// Why the resource could not be fetched, nil when it was.
    package var failure: String?
    /// The protocol of the final answer ("HTTP/1.1", "HTTP/2"), nil when none arrived.
    package var httpVersion: String?
    /// The Accept-Encoding the request offered, nil when it sent none (a byte range).
    package var acceptEncoding: String?
    /// The Content-Encoding of the final response ("gzip"), nil when the body came as it is.
    package var contentEncoding: String?

    package init(
        uri: String, kind: Kind, status: Int? = nil, contentType: String? = nil, redirects: [String] = [],
        retries: [String] = [], failure: String? = nil, httpVersion: String? = nil, acceptEncoding: String? = nil,
        contentEncoding: String? = nil
    ) {
        self.httpVersion = httpVersion
        self.acceptEncoding = acceptEncoding
        self.contentEncoding = contentEncoding
        self.uri = uri
        self.kind = kind
        self.status = status
        self.contentType = contentType
        self.redirects = redirects
        self.retries = retries
        self.failure = failure
    }

    /// "HTTP/2" for major version 2 (RFC 9113 names no minor version), else "HTTP/1.1", "HTTP/1.0".
    package static func protocolName(_ major: Int, _ minor: Int) -> String {
        major >= 2 ? "HTTP/\(major)" : "HTTP/\(major).\(minor)"
    }

    /// The first hop that went from https to plain http, as (from, to).
    package var downgrade: (from: String, to: String)? {
        var previous = uri
        for next in redirects {
            if URIScheme.of(previous) == "https", URIScheme.of(next) == "http" { return (previous, next) }
            previous = next
        }
        return nil
    }
}

/// What every answer of one check had in common, counted for all of them (records are kept
/// only for the noteworthy ones): what a user debugging a CDN asks first.
package struct DeliveryTraffic: Sendable, Hashable {
    /// HTTP answers received, redirects and errors included (retries count each time).
    package var responses = 0
    /// Body bytes kept, after decompression.
    package var bodyBytes = 0
    /// Answers per protocol: "HTTP/1.1", "HTTP/2".
    package var httpVersions: [String: Int] = [:]

    package init(responses: Int = 0, bodyBytes: Int = 0, httpVersions: [String: Int] = [:]) {
        self.responses = responses
        self.bodyBytes = bodyBytes
        self.httpVersions = httpVersions
    }
}

/// What the network side of one check saw.
package struct DeliveryLog: Sendable, Hashable {
    package var records: [DeliveryRecord]
    /// `--insecure`: TLS certificates and host names were not verified.
    package var tlsVerificationDisabled: Bool
    /// Whether any https URL was requested.
    package var usedTLS: Bool
    /// Counts over every answer.
    package var traffic: DeliveryTraffic

    package init(
        records: [DeliveryRecord] = [], tlsVerificationDisabled: Bool = false, usedTLS: Bool = false,
        traffic: DeliveryTraffic = DeliveryTraffic()
    ) {
        self.records = records
        self.tlsVerificationDisabled = tlsVerificationDisabled
        self.usedTLS = usedTLS
        self.traffic = traffic
    }
}

/// A source that can tell how its resources were delivered (HLSRemote's fetcher).
package protocol DeliveryObserver: Sendable {
    /// The records of `uris`' requests so far (playlists and noteworthy segments).
    func deliveryLog() async -> DeliveryLog
}

/// The scheme of a URI, lowercased; nil without one.
package enum URIScheme {
    package static func of(_ uri: String) -> String? {
        guard let colon = uri.firstIndex(of: ":") else { return nil }
        let scheme = uri[..<colon]
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first),
            scheme.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "+"
                    || $0 == "-" || $0 == "."
            })
        else { return nil }
        return scheme.lowercased()
    }

    /// Whether `uri` is an http or https URL (what the remote sources fetch).
    package static func isRemote(_ uri: String) -> Bool {
        let scheme = of(uri)
        return scheme == "http" || scheme == "https"
    }
}
