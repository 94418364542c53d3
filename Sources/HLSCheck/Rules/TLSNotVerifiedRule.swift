import HLSPlaylist

// Rules about how a remote stream is delivered over HTTP (docs/remote.md). They read the
// delivery log the remote sources kept; on a local stream the log is empty and they are silent.

/// `--insecure`: the report says that TLS was not verified.
package struct TLSNotVerifiedRule: Rule {
    package static let description = RuleDescription.network(
        id: "tls-not-verified", name: "TLS not verified", defaultSeverity: .warning,
        summary: "The stream was fetched over https with certificate verification off (--insecure).",
        rationale: """
            With --insecure hlscheck accepts any certificate, so the bytes checked may not be the \
            bytes a player gets: a player verifies the certificate and refuses a self-signed or \
            mismatched one. The report says so, so a green run with --insecure is never mistaken \
            for a clean one.
            """)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard stream.delivery.tlsVerificationDisabled, stream.delivery.usedTLS else { return [] }
        return [
            Finding(
                "TLS certificates were not verified (--insecure): players verify them and may refuse this server",
                at: SourceLocation(uri: stream.loaded.rootURI, line: 0))
        ]
    }
}
