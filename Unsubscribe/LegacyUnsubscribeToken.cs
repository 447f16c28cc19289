using System.Buffers.Text;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Notifications.Shared.Unsubscribe;

namespace Notifications.Unsubscribe;

/// <summary>
/// The first token format, in mail sent before the tokens were encrypted: <c>base64url(id "\n" address) "."
/// base64url(HMAC-SHA256(key, "unsubscribe.v1\n" id "\n" address))</c>, readable by anyone who sees the URL. Honoured
/// for a deprecation window while <see cref="UnsubscribeServerOptions.LegacySigningKey"/> holds the consumer's old key
/// (docs/suppression.md, "Links in mail sent before the upgrade"); never made any more. A new token has no '.'.
/// </summary>
internal sealed class LegacyUnsubscribeToken(byte[]? key)
{
    private static readonly byte[] Purpose = Encoding.ASCII.GetBytes("unsubscribe.v1\n");

    /// <summary>Whether old tokens are honoured (the old key is configured).</summary>
    public bool Enabled => key is not null;

    /// <summary>Whether <paramref name="token"/> has the old shape (a '.'), whatever its signature.</summary>
    public static bool IsLegacy(string? token) => token?.Contains('.', StringComparison.Ordinal) == true;

    /// <summary>Reads and verifies an old token in constant time; its payload has no issue time (the old tokens had none).</summary>
    public UnsubscribeTokenCheck Verify(string token)
    {
        int dot = token.IndexOf('.', StringComparison.Ordinal);
        if (key is null || dot <= 0 || dot == token.Length - 1 || token.Length > UnsubscribeToken.MaxLength
            || !Base64Url.IsValid(token.AsSpan(0, dot)) || !Base64Url.IsValid(token.AsSpan(dot + 1)))
        {
            return UnsubscribeTokenCheck.Malformed;
        }

        byte[] payload = Base64Url.DecodeFromChars(token.AsSpan(0, dot));
        byte[] mac = Base64Url.DecodeFromChars(token.AsSpan(dot + 1));
        if (!CryptographicOperations.FixedTimeEquals(mac, HMACSHA256.HashData(key, (byte[])[.. Purpose, .. payload])))
        {
            return new UnsubscribeTokenCheck(UnsubscribeTokenOutcome.Forged, null);
        }

        string text = Encoding.UTF8.GetString(payload);
        int newline = text.IndexOf('\n', StringComparison.Ordinal);
        return newline > 0 && long.TryParse(text.AsSpan(0, newline), NumberStyles.None, CultureInfo.InvariantCulture, out long id) && newline < text.Length - 1
            ? new UnsubscribeTokenCheck(UnsubscribeTokenOutcome.Valid, new UnsubscribePayload(id, text[(newline + 1)..], DateTimeOffset.UnixEpoch))
            : UnsubscribeTokenCheck.Malformed;
    }
}
