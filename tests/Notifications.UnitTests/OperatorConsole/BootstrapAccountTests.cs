using Microsoft.Extensions.Options;
using Notifications.OperatorConsole.Authentication;

namespace Notifications.UnitTests.OperatorConsole;

/// <summary>The bootstrap account's check: only its user name with its password, the file's trailing newline ignored.</summary>
public sealed class BootstrapAccountTests
{
    private const string Password = "0123456789abcdef0123456789abcdef";

    [Theory]
    [InlineData("operator", Password, true)]
    [InlineData("operator", Password + "x", false)]
    [InlineData("operator", "0123456789abcdef", false)]
    [InlineData("Operator", Password, false)]
    [InlineData("", Password, false)]
    [InlineData("operator", "", false)]
    [InlineData(null, null, false)]
    public void Check_UserAndPassword_OnlyTheAccountsPair(string? user, string? password, bool expected)
    {
        var account = new BootstrapAccount(Options.Create(new BootstrapOptions { Password = Password + "\n" }));

        Assert.Equal(expected, account.Check(user, password));
    }

    [Fact]
    public void Check_NotConfigured_RefusesEveryone()
    {
        var account = new BootstrapAccount(Options.Create(new BootstrapOptions()));

        Assert.False(account.Enabled);
        Assert.False(account.Check("operator", ""));
    }
}
