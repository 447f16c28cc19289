using Microsoft.Extensions.Options;
using Notifications.OperatorConsole.Authentication;

namespace Notifications.UnitTests.OperatorConsole;

/// <summary>The console never starts open: no sign-in configured, a short password or an incomplete provider refuses to start.</summary>
public sealed class SignInOptionsTests
{
    [Fact]
    public void Validate_NoSignInAtAll_FailsNamingBothWays()
    {
        var result = new BootstrapOptionsValidator(Options.Create(new ConsoleOidcOptions())).Validate(null, new BootstrapOptions());

        Assert.True(result.Failed);
        Assert.Contains("the console has no sign-in", result.FailureMessage, StringComparison.Ordinal);
        Assert.Contains("Console:Oidc:Authority", result.FailureMessage, StringComparison.Ordinal);
        Assert.Contains("Console:Bootstrap:PasswordFile", result.FailureMessage, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_OidcOnly_Succeeds()
    {
        var oidc = new ConsoleOidcOptions { Authority = "https://login.example.com/", ClientId = "console" };

        Assert.True(new BootstrapOptionsValidator(Options.Create(oidc)).Validate(null, new BootstrapOptions()).Succeeded);
        Assert.True(new OidcOptionsValidator().Validate(null, oidc).Succeeded);
    }

    [Theory]
    [InlineData("short")]
    [InlineData("")]
    public void Validate_PasswordShorterThan16_Fails(string password)
    {
        string file = Path.GetTempFileName();
        File.WriteAllText(file, password + "\n");
        try
        {
            var result = new BootstrapOptionsValidator(Options.Create(new ConsoleOidcOptions())).Validate(null, new BootstrapOptions { PasswordFile = file });

            Assert.True(result.Failed);
            Assert.Contains("at least 16 characters", result.FailureMessage, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Fact]
    public void Validate_MissingPasswordFile_FailsNamingIt()
    {
        var result = new BootstrapOptionsValidator(Options.Create(new ConsoleOidcOptions())).Validate(null, new BootstrapOptions { PasswordFile = "/nonexistent/console_operator" });

        Assert.True(result.Failed);
        Assert.Contains("/nonexistent/console_operator", result.FailureMessage, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("http://login.example.com/", true, "must be https://")]
    [InlineData("not a url", false, "absolute URL")]
    public void Validate_OidcAuthority_RefusedWithReason(string authority, bool requireHttps, string reason)
    {
        var result = new OidcOptionsValidator().Validate(null, new ConsoleOidcOptions { Authority = authority, ClientId = "console", RequireHttpsMetadata = requireHttps });

        Assert.True(result.Failed);
        Assert.Contains(reason, result.FailureMessage, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_OidcWithoutClientId_Fails()
    {
        var result = new OidcOptionsValidator().Validate(null, new ConsoleOidcOptions { Authority = "https://login.example.com/" });

        Assert.Contains("ClientId is required", result.FailureMessage, StringComparison.Ordinal);
    }
}
