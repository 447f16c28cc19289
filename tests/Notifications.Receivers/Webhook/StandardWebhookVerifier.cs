using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// Verifies a delivery as the Standard Webhooks receivers do: HMAC-SHA256 over <c>{webhook-id}.{webhook-timestamp}.{body}</c>
/// with each secret the receiver knows (<c>whsec_</c> + base64 key; two during a rotation), any of the space-separated
/// <c>v1,&lt;base64&gt;</c> signatures may match (other versions are skipped), compared in constant time; a timestamp
/// more than five minutes away from now is refused against replay.
/// </summary>
internal sealed class StandardWebhookVerifier
{
    public const string IdHeader = "webhook-id";
    public const string TimestampHeader = "webhook-timestamp";
    public const string SignatureHeader = "webhook-signature";
    private const string SecretPrefix = "whsec_";

    public static readonly TimeSpan Tolerance = TimeSpan.FromMinutes(5);

    private readonly IReadOnlyList<byte[]> keys;

    public StandardWebhookVerifier(IReadOnlyList<string> secrets)
    {
        if (secrets.Count is 0)
        {
            throw new ArgumentException("A webhook receiver needs at least one secret.", nameof(secrets));
        }

        keys = secrets.Select(KeyOf).ToList();
    }

    public WebhookVerdict Verify(string? id, string? timestamp, string? signatures, ReadOnlySpan<byte> body, DateTimeOffset now)
    {
        if (string.IsNullOrEmpty(id) || string.IsNullOrEmpty(timestamp) || string.IsNullOrEmpty(signatures))
        {
            return WebhookVerdict.BadRequest("missing webhook-id, webhook-timestamp or webhook-signature");
        }

        if (!long.TryParse(timestamp, NumberStyles.None, CultureInfo.InvariantCulture, out long seconds))
        {
            return WebhookVerdict.BadRequest($"webhook-timestamp '{timestamp}' is not integer seconds");
        }

        var sent = DateTimeOffset.FromUnixTimeSeconds(seconds);
        if (sent < now - Tolerance || sent > now + Tolerance)
        {
            return WebhookVerdict.Unauthorized($"webhook-timestamp {seconds} is outside the tolerance of {Tolerance.TotalMinutes} minutes");
        }

        var expected = new List<byte[]>(keys.Count);
        foreach (byte[] key in keys)
        {
            expected.Add(Hmac(key, id, timestamp, body));
        }

        foreach (string versioned in signatures.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            if (Matches(versioned, expected))
            {
                return WebhookVerdict.Accepted;
            }
        }

        return WebhookVerdict.Unauthorized("no v1 signature matches a known secret");
    }

    /// <summary>The header value a sender writes: <c>v1,&lt;base64 HMAC&gt;</c> (for the tests' own deliveries).</summary>
    public static string Sign(string secret, string id, long timestamp, ReadOnlySpan<byte> body) =>
        "v1," + Convert.ToBase64String(Hmac(KeyOf(secret), id, timestamp.ToString(CultureInfo.InvariantCulture), body));

    private static bool Matches(string versioned, List<byte[]> expected)
    {
        int comma = versioned.IndexOf(',', StringComparison.Ordinal);
        if (comma < 0 || versioned[..comma] != "v1")
        {
            return false;
        }

        byte[] passed = new byte[32];
        if (!Convert.TryFromBase64String(versioned[(comma + 1)..], passed, out int written) || written != passed.Length)
        {
            return false;
        }

        bool any = false;
        foreach (byte[] mac in expected)
        {
            any |= CryptographicOperations.FixedTimeEquals(mac, passed);
        }

        return any;
    }

    private static byte[] Hmac(byte[] key, string id, string timestamp, ReadOnlySpan<byte> body)
    {
        using var hmac = IncrementalHash.CreateHMAC(HashAlgorithmName.SHA256, key);
        hmac.AppendData(Encoding.UTF8.GetBytes($"{id}.{timestamp}."));
        hmac.AppendData(body);
        return hmac.GetHashAndReset();
    }

    private static byte[] KeyOf(string secret) =>
        Convert.FromBase64String(secret.StartsWith(SecretPrefix, StringComparison.Ordinal) ? secret[SecretPrefix.Length..] : secret);
}
