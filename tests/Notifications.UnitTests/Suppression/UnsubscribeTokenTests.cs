using System.Buffers.Text;
using System.Security.Cryptography;
using Microsoft.Extensions.Time.Testing;
using Notifications.Shared.Unsubscribe;

namespace Notifications.UnitTests.Suppression;

public sealed class UnsubscribeTokenTests
{
    private static readonly string OldKey = Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));
    private static readonly string NewKey = Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));
    private static readonly DateTimeOffset Now = new(2026, 11, 1, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public void Read_TokenItMade_ValidWithItsIdLowerCaseAddressAndTime()
    {
        var tokens = Tokens(("k1", OldKey));

        var check = tokens.Read(tokens.Create(new UnsubscribePayload(42, "User@Example.COM", Now)));

        Assert.Equal(UnsubscribeTokenOutcome.Valid, check.Outcome);
        Assert.Equal(new UnsubscribePayload(42, "user@example.com", Now), check.Payload);
    }

    [Fact]
    public void Create_SamePayloadTwice_DifferentTokensOfUrlSafeCharacters()
    {
        var tokens = Tokens(("k1", OldKey));
        var payload = new UnsubscribePayload(42, "user@example.com", Now);

        string a = tokens.Create(payload), b = tokens.Create(payload);

        Assert.NotEqual(a, b);
        Assert.Matches("^[A-Za-z0-9_-]+$", a);
    }

    [Fact]
    public void Create_Token_RevealsNeitherAddressNorId()
    {
        var tokens = Tokens(("k1", OldKey));

        string token = tokens.Create(new UnsubscribePayload(123456789, "reader@example.com", Now));

        string decoded = System.Text.Encoding.Latin1.GetString(Base64Url.DecodeFromChars(token));
        Assert.DoesNotContain("reader", token, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("reader", decoded, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("example", decoded, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("123456789", decoded, StringComparison.Ordinal);
    }

    [Fact]
    public void Read_AnyByteFlipped_ForgedOrMalformedNeverValid()
    {
        var tokens = Tokens(("k1", OldKey));
        byte[] bytes = Base64Url.DecodeFromChars(tokens.Create(new UnsubscribePayload(42, "user@example.com", Now)));

        for (int i = 0; i < bytes.Length; i++)
        {
            byte[] tampered = (byte[])bytes.Clone();
            tampered[i] ^= 0x01;
            var outcome = tokens.Read(Base64Url.EncodeToString(tampered)).Outcome;
            Assert.True(outcome is UnsubscribeTokenOutcome.Forged or UnsubscribeTokenOutcome.Malformed or UnsubscribeTokenOutcome.UnknownKey, $"byte {i}: {outcome}");
        }
    }

    [Fact]
    public void Read_AfterRotationWithTheOldKeyKept_OldTokenValidNewTokensOfTheNewKey()
    {
        string old = Tokens(("2026-05", OldKey)).Create(new UnsubscribePayload(42, "user@example.com", Now));
        var rotated = Tokens(("2026-05", OldKey), ("2026-11", NewKey), current: "2026-11");

        Assert.Equal(UnsubscribeTokenOutcome.Valid, rotated.Read(old).Outcome);
        string made = rotated.Create(new UnsubscribePayload(43, "user@example.com", Now));
        Assert.Equal(UnsubscribeTokenOutcome.Valid, Tokens(("2026-11", NewKey)).Read(made).Outcome);
    }

    [Fact]
    public void Read_AfterTheOldKeyIsRemoved_UnknownKey()
    {
        string old = Tokens(("2026-05", OldKey)).Create(new UnsubscribePayload(42, "user@example.com", Now));

        Assert.Equal(UnsubscribeTokenOutcome.UnknownKey, Tokens(("2026-11", NewKey)).Read(old).Outcome);
    }

    [Fact]
    public void Read_OlderThanTheLifetime_ExpiredWithItsPayload()
    {
        var time = new FakeTimeProvider(Now);
        var options = Options(("k1", OldKey));
        var tokens = new UnsubscribeToken(options, time);
        string token = tokens.Create(new UnsubscribePayload(42, "user@example.com", Now));

        time.Advance(options.TokenLifetime + TimeSpan.FromSeconds(1));

        var check = tokens.Read(token);
        Assert.Equal((UnsubscribeTokenOutcome.Expired, 42L), (check.Outcome, check.Payload!.NotificationId));
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("not base64!")]
    [InlineData("AAAA")]
    [InlineData("payload.signature")]
    public void Read_NotAToken_Malformed(string? token)
    {
        Assert.Equal(UnsubscribeTokenOutcome.Malformed, Tokens(("k1", OldKey)).Read(token).Outcome);
    }

    [Theory]
    [InlineData("short", null, "32 random bytes in base64")]
    [InlineData("k", "other", "is not one of Unsubscribe:Keys")]
    public void Validate_BadRing_FailsNamingTheKey(string key, string? current, string expected)
    {
        var options = new UnsubscribeKeyOptions { Keys = { ["k"] = key == "k" ? OldKey : key }, CurrentKey = current };

        var result = new UnsubscribeKeyOptionsValidator().Validate(null, options);

        Assert.True(result.Failed);
        Assert.Contains(expected, result.FailureMessage, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_TwoKeysNoCurrent_FailsAskingForIt()
    {
        var result = new UnsubscribeKeyOptionsValidator().Validate(null, Options(("a", OldKey), ("b", NewKey)));

        Assert.Contains("Unsubscribe:CurrentKey must name", result.FailureMessage, StringComparison.Ordinal);
    }

    internal static UnsubscribeToken Tokens(params (string Name, string Key)[] keys) => new(Options(keys), new FakeTimeProvider(Now));

    private static UnsubscribeToken Tokens((string, string) a, (string, string) b, string current)
    {
        var options = Options(a, b);
        options.CurrentKey = current;
        return new UnsubscribeToken(options, new FakeTimeProvider(Now));
    }

    private static UnsubscribeKeyOptions Options(params (string Name, string Key)[] keys)
    {
        var options = new UnsubscribeKeyOptions();
        foreach (var (name, key) in keys)
        {
            options.Keys[name] = key;
        }

        return options;
    }
}
