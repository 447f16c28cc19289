using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace Notifications.Shared.Observability;

/// <summary>
/// What a <see cref="PublicServer"/>'s options must hold to listen (section <c>Unsubscribe</c>, <c>Gateway</c>): an IP address,
/// and a PEM certificate with its key, both or neither, that load.
/// </summary>
internal static class PublicServerListen
{
    /// <summary>What is wrong with the options of <paramref name="section"/>; empty when nothing is.</summary>
    public static List<string> Problems(string section, string address, string? certificate, string? key)
    {
        var failures = new List<string>();
        if (!IPAddress.TryParse(address, out _))
        {
            failures.Add($"{section}:Address must be an IP address (e.g. 127.0.0.1 or 0.0.0.0), not '{address}'");
        }

        bool tls = certificate is { Length: > 0 };
        if (tls != key is { Length: > 0 })
        {
            failures.Add($"{section}:Certificate and {section}:CertificateKey go together (PEM files): set both for TLS, neither for plain HTTP");
        }
        else if (tls && CertificateProblem(certificate!, key!) is { } problem)
        {
            failures.Add($"{section}:Certificate '{certificate}' with {section}:CertificateKey '{key}' cannot be loaded: {problem}");
        }

        return failures;
    }

    /// <summary>The certificate and key as Kestrel gets them.</summary>
    public static X509Certificate2 Load(string certificate, string key) => X509Certificate2.CreateFromPemFile(certificate, key);

    private static string? CertificateProblem(string certificate, string key)
    {
        try
        {
            using var loaded = Load(certificate, key);
            return null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or CryptographicException or ArgumentException)
        {
            return ex.Message;
        }
    }
}
