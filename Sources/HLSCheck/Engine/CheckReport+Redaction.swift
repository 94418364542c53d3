import HLSPlaylist
import StreamSources

extension CheckReport {
    /// The report with every URL's credentials replaced by `***` (input, messages, locations,
    /// variant URIs): what is shown and written, whatever the format.
    package func redactingCredentials() -> CheckReport {
        var copy = self
        copy.input = CredentialRedaction.redact(input)
        copy.diagnostics = diagnostics.map { diagnostic in
            var redacted = diagnostic
            redacted.message = CredentialRedaction.redact(diagnostic.message)
            redacted.location = diagnostic.location.map {
                SourceLocation(uri: CredentialRedaction.redact($0.uri), line: $0.line, column: $0.column)
            }
            return redacted
        }
        // A remote playlist's relative URIs carry the server's query tokens as written.
        let remote = URIScheme.isRemote(input)
        copy.variants = variants.map { variant in
            var redacted = variant
            redacted.uri =
                remote ? CredentialRedaction.redactReference(variant.uri) : CredentialRedaction.redact(variant.uri)
            redacted.playlist = CredentialRedaction.redact(variant.playlist)
            redacted.peakCombination = variant.peakCombination?.map(CredentialRedaction.redact)
            return redacted
        }
        copy.inputError = inputError.map { CheckError(CredentialRedaction.redact($0.description)) }
        copy.delivery = delivery.map { log in
            var redacted = log
            redacted.records = log.records.map { record in
                var record = record
                record.uri = CredentialRedaction.redact(record.uri)
                record.redirects = record.redirects.map(CredentialRedaction.redact)
                record.failure = record.failure.map(CredentialRedaction.redact)
                return record
            }
            return redacted
        }
        // The HTML report finds each variant's chart by its (redacted) playlist.
        copy.bitrateSeries = Dictionary(
            bitrateSeries.map { (CredentialRedaction.redact($0.key), $0.value) },
            uniquingKeysWith: { first, _ in first })
        return copy
    }
}
