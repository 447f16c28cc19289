using System.Buffers.Text;
using System.Security.Cryptography;
using System.Text;
using Notifications.Shared.Unsubscribe;
using Notifications.Unsubscribe;

namespace Notifications.UnitTests.Unsubscribe;

/// <summary>The first, readable token format, as the consumer made it before the tokens were encrypted.</summary>
public sealed class LegacyUnsubscribeTokenTests
{
    private static readonly byte[] Key = Encoding.UTF8.GetBytes("the-consumers-old-key-of-32-characters!");

    /// <summary>A token as the old consumer made it: base64url(id "\n" address) "." base64url(HMAC-SHA256(key, purpose ‖ payload)).</summary>
    public static string Make(byte[] key, long id, string address)
    {
        byte[] payload = Encoding.UTF8.GetBytes(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{id}\n{address}"));
        return Base64Url.EncodeToString(payload) + "." + Base64Url.EncodeToString(HMACSHA256.HashData(key, (byte[])[.. "unsubscribe.v1\n"u8, .. payload]));
    }

    [Fact]
    public void Verify_OldTokenWithTheOldKey_ValidWithItsIdAndAddress()
    {
        var check = new LegacyUnsubscribeToken(Key).Verify(Make(Key, 42, "user@example.com"));

        Assert.Equal((UnsubscribeTokenOutcome.Valid, 42L, "user@example.com"), (check.Outcome, check.Payload!.NotificationId, check.Payload.Address));
    }

    [Fact]
    public void Verify_AddressSwappedUnderTheSameSignature_Forged()
    {
        string token = Make(Key, 42, "user@example.com"), other = Make(Key, 42, "victim@example.com");
        string swapped = other[..other.IndexOf('.', StringComparison.Ordinal)] + token[token.IndexOf('.', StringComparison.Ordinal)..];

        Assert.Equal(UnsubscribeTokenOutcome.Forged, new LegacyUnsubscribeToken(Key).Verify(swapped).Outcome);
    }

    [Theory]
    [InlineData(".abc")]
    [InlineData("abc.")]
    [InlineData("not base64!.abc")]
    public void Verify_NotAToken_Malformed(string token)
    {
        Assert.Equal(UnsubscribeTokenOutcome.Malformed, new LegacyUnsubscribeToken(Key).Verify(token).Outcome);
    }

    [Fact]
    public void Verify_NoOldKeyConfigured_Malformed()
    {
        var legacy = new LegacyUnsubscribeToken(null);

        Assert.False(legacy.Enabled);
        Assert.Equal(UnsubscribeTokenOutcome.Malformed, legacy.Verify(Make(Key, 42, "user@example.com")).Outcome);
    }
}
