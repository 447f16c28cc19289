using System.Buffers.Text;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace Notifications.Consumer.Channels.Email.Unsubscribe;

/// <summary>
/// The token in an unsubscribe URL: <c>base64url(id "\n" address) "." base64url(HMAC-SHA256(key, "unsubscribe.v1\n" id "\n" address))</c>.
/// It names the recipient and notification it was made for and cannot be made or altered without the key; it is checked
/// in constant time. It does not expire: an unsubscribe link must work as long as the mail is read (RFC 8058 §3.1).
/// </summary>
internal sealed class UnsubscribeToken(byte[] key)
{
    private static readonly byte[] Purpose = Encoding.ASCII.GetBytes("unsubscribe.v1\n");

    /// <summary>The token for <paramref name="recipient"/> (lower-cased) and notification <paramref name="notificationId"/>.</summary>
    public string Create(long notificationId, string recipient)
    {
        byte[] payload = Payload(notificationId, recipient.Trim().ToLowerInvariant());
        return Base64Url.EncodeToString(payload) + "." + Base64Url.EncodeToString(Sign(payload));
    }

    /// <summary>Reads and verifies <paramref name="token"/>: the outcome, and the id and address it was made for when valid.</summary>
    public UnsubscribeTokenCheck Verify(string? token)
    {
        int dot = token?.IndexOf('.', StringComparison.Ordinal) ?? -1;
        if (token is null || dot <= 0 || dot == token.Length - 1 || token.Length > 2048)
        {
            return UnsubscribeTokenCheck.Malformed;
        }

        byte[] payload, mac;
        try
        {
            payload = Base64Url.DecodeFromChars(token.AsSpan(0, dot));
            mac = Base64Url.DecodeFromChars(token.AsSpan(dot + 1));
        }
        catch (FormatException)
        {
            return UnsubscribeTokenCheck.Malformed;
        }

        if (!CryptographicOperations.FixedTimeEquals(mac, Sign(payload)))
        {
            return UnsubscribeTokenCheck.Forged;
        }

        string text = Encoding.UTF8.GetString(payload);
        int newline = text.IndexOf('\n', StringComparison.Ordinal);
        return newline > 0 && long.TryParse(text.AsSpan(0, newline), NumberStyles.None, CultureInfo.InvariantCulture, out long id)
            ? new UnsubscribeTokenCheck(UnsubscribeTokenOutcome.Valid, id, text[(newline + 1)..])
            : UnsubscribeTokenCheck.Malformed;
    }

    private static byte[] Payload(long notificationId, string address) =>
        Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture, $"{notificationId}\n{address}"));

    private byte[] Sign(byte[] payload) => HMACSHA256.HashData(key, (byte[])[.. Purpose, .. payload]);
}
