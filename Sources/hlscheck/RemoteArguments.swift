import ArgumentParser
import HLSCheck
import HLSRemote
import StreamSources

/// `--header`, `--insecure`, timeouts, retries, connections: how remote streams and segments are
/// fetched (docs/remote.md). Shared by check, artwork and inspect.
struct RemoteArguments: ParsableArguments {
    @Option(
        name: .customLong("header"),
        help: ArgumentHelp(
            "Send this HTTP header to the origin of the URLs given, never to another host a playlist or redirect names, e.g. 'Authorization: Bearer …'; repeatable.",
            valueName: "Name: value"))
    var headers: [String] = []

    @Flag(help: "Accept any TLS certificate (self-signed, expired, wrong host). Reported as tls-not-verified.")
    var insecure = false

    @Option(
        name: .customLong("connect-timeout"),
        help: ArgumentHelp("Seconds to establish a connection (default 10).", valueName: "seconds"))
    var connectTimeout: Double?

    @Option(
        name: .customLong("request-timeout"),
        help: ArgumentHelp("Seconds for one request, body included (default 30).", valueName: "seconds"))
    var requestTimeout: Double?

    @Option(
        help: ArgumentHelp(
            "Retries after a 5xx answer or a broken connection, with doubling backoff (default 2).", valueName: "count")
    )
    var retries: Int?

    @Option(
        name: .customLong("http-connections"),
        help: ArgumentHelp("Requests in flight and connections per host (default 4).", valueName: "count"))
    var httpConnections: Int?

    func validate() throws {
        // The value is not echoed: it is a credential more often than not (docs/security.md).
        for header in headers where Self.parseHeader(header) == nil {
            throw ValidationError(
                "--header takes 'Name: value' (a token name, a colon, a value without line breaks); got \(TerminalText.escaped(CredentialRedaction.redactHeader(header)))"
            )
        }
        for (name, value) in [("--connect-timeout", connectTimeout), ("--request-timeout", requestTimeout)] {
            if let value, !(value > 0 && value <= 86_400) {
                throw ValidationError("\(name) must be between 0 and 86400 seconds, got \(value)")
            }
        }
        if let retries, !(0...10).contains(retries) {
            throw ValidationError("--retries must be between 0 and 10, got \(retries)")
        }
        if let httpConnections, !(1...64).contains(httpConnections) {
            throw ValidationError("--http-connections must be between 1 and 64, got \(httpConnections)")
        }
    }

    /// The options of a run whose inputs are `inputs`: each `--header` goes to the origins of
    /// the inputs that are URLs, and to no other (not to a server a playlist or a redirect
    /// names, nor to the remote media playlists of a local multivariant playlist).
    func options(sendingHeadersTo inputs: [String]) -> RemoteOptions {
        var options = RemoteOptions()
        options.userAgent = "hlscheck/\(HLSCheckVersion.current)"
        options.headers = headers.compactMap(Self.parseHeader).map {
            RemoteOptions.Header(name: $0.0, value: $0.1, sentTo: inputs)
        }
        options.insecure = insecure
        if let connectTimeout { options.connectTimeoutSeconds = connectTimeout }
        if let requestTimeout { options.requestTimeoutSeconds = requestTimeout }
        if let retries { options.retries = retries }
        if let httpConnections { options.maximumConnections = httpConnections }
        return options
    }

    /// "Name: value" → (name, value); nil when the name is not an RFC 9110 token or the value
    /// holds a line break (a header must not smuggle another).
    static func parseHeader(_ text: String) -> (String, String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = String(text[..<colon])
        let value = String(text[text.index(after: colon)...]).drop { $0 == " " || $0 == "\t" }
        let token = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !name.isEmpty, name.allSatisfy(token.contains), !value.contains("\r"), !value.contains("\n"),
            !value.contains("\0")
        else { return nil }
        return (name, String(value))
    }

}

/// `--sample`, `--live-duration`: how much of a long or live stream is checked (docs/remote.md).
/// Only check reads whole streams, so only check has them (inspect reads the segments it is given).
struct StreamExtentArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read only N segments of each media playlist, spread over it; the report says so (segments-sampled).",
            valueName: "N"))
    var sample: Int?

    @Option(
        name: .customLong("live-duration"),
        help: ArgumentHelp(
            "Reload live playlists for this long (e.g. 60s, 2m) and check what must hold across reloads.",
            valueName: "duration"))
    var liveDuration: String?

    func validate() throws {
        if let sample, sample < 1 { throw ValidationError("--sample must be at least 1, got \(sample)") }
        if let liveDuration, Self.seconds(liveDuration) == nil {
            throw ValidationError(
                "--live-duration takes a duration such as 60s, 90, 2m or 1h; got \(TerminalText.escaped(liveDuration))")
        }
    }

    func apply(to configuration: inout CheckConfiguration) {
        configuration.sampleSegments = sample
        configuration.liveWatchSeconds = liveDuration.flatMap(Self.seconds)
    }

    /// "60s", "60", "2m", "1h", "1.5m" → seconds; nil when not a positive duration.
    static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
        var number = Substring(text)
        var factor = 1.0
        if let last = number.last, let unit = units[last] {
            factor = unit
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value > 0, value * factor <= 86_400 else { return nil }
        return value * factor
    }
}
