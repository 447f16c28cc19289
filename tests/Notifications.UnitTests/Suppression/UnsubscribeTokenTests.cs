using System.Text;
using Notifications.Consumer.Channels.Email.Unsubscribe;

namespace Notifications.UnitTests.Suppression;

public sealed class UnsubscribeTokenTests
{
    private static readonly UnsubscribeToken Token = new(Encoding.UTF8.GetBytes("a-test-key-of-at-least-32-characters!"));

    [Fact]
    public void Verify_TokenItMade_ValidWithItsIdAndLowerCaseAddress()
    {
        string token = Token.Create(42, "User@Example.COM");

        var check = Token.Verify(token);

        Assert.Equal((UnsubscribeTokenOutcome.Valid, 42L, "user@example.com"), (check.Outcome, check.NotificationId, check.Address));
        Assert.DoesNotContain('+', token);
        Assert.DoesNotContain('/', token);
        Assert.DoesNotContain('=', token);
    }

    [Fact]
    public void Verify_OtherAddressWithTheSameSignature_Forged()
    {
        string token = Token.Create(42, "user@example.com");
        string other = Token.Create(42, "other@example.com");
        string swapped = other[..other.IndexOf('.', StringComparison.Ordinal)] + token[token.IndexOf('.', StringComparison.Ordinal)..];

        Assert.Equal(UnsubscribeTokenOutcome.Forged, Token.Verify(swapped).Outcome);
    }

    [Fact]
    public void Verify_TokenOfAnotherKey_Forged()
    {
        var stranger = new UnsubscribeToken(Encoding.UTF8.GetBytes("another-key-of-at-least-32-characters"));

        Assert.Equal(UnsubscribeTokenOutcome.Forged, Token.Verify(stranger.Create(42, "user@example.com")).Outcome);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("no-dot")]
    [InlineData(".abc")]
    [InlineData("abc.")]
    [InlineData("not base64!.abc")]
    public void Verify_NotAToken_Malformed(string? token)
    {
        Assert.Equal(UnsubscribeTokenOutcome.Malformed, Token.Verify(token).Outcome);
    }
}
