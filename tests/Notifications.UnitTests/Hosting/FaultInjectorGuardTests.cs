using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Hosting.Internal;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;

namespace Notifications.UnitTests.Hosting;

/// <summary>The fault injector (a self-SIGKILL) is a test hook: refused outside Development unless NOTIFICATIONS_TEST_HOOKS=1.</summary>
public sealed class FaultInjectorGuardTests
{
    [Theory]
    [InlineData("Production", null, false)]
    [InlineData("Staging", null, false)]
    [InlineData("Production", "0", false)]
    [InlineData("Production", "true", false)]
    [InlineData("Production", "1", true)]
    [InlineData("Development", null, true)]
    [InlineData("development", null, true)]
    public void HooksAllowed_EnvironmentAndSwitch_OnlyDevelopmentOrExplicitSwitch(string environment, string? testHooks, bool allowed) =>
        Assert.Equal(allowed, FaultInjector.HooksAllowed(environment, testHooks));

    [Fact]
    public void Constructor_ProductionKillAtWithoutSwitch_InactiveAndWarns4460()
    {
        var logger = new RecordingLogger();

        var injector = Create("before-commit:1", Environments.Production, logger, testHooks: null);
        injector.Reached("before-commit");

        Assert.False(injector.IsActive);
        var warning = Assert.Single(logger.Records);
        Assert.Equal(4460, warning.EventId);
        Assert.Equal(LogLevel.Warning, warning.Level);
        Assert.Contains("before-commit:1", warning.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Constructor_ProductionKillAtWithSwitch_ActiveAndSilent()
    {
        var logger = new RecordingLogger();

        var injector = Create("before-commit:2", Environments.Production, logger, testHooks: "1");

        Assert.True(injector.IsActive);
        Assert.Empty(logger.Records);
    }

    [Fact]
    public void Constructor_NoKillAtInProduction_InactiveAndSilent()
    {
        var logger = new RecordingLogger();

        var injector = Create(null, Environments.Production, logger, testHooks: null);

        Assert.False(injector.IsActive);
        Assert.Empty(logger.Records);
    }

    [Fact]
    public void Constructor_MalformedKillAtInProduction_StillRejected() =>
        Assert.Throws<OptionsValidationException>(() => Create("before-commit", Environments.Production, new RecordingLogger(), testHooks: null));

    private static FaultInjector Create(string? killAt, string environment, ILogger logger, string? testHooks) =>
        new(Options.Create(new FaultOptions { KillAt = killAt }), new HostingEnvironment { EnvironmentName = environment }, logger, testHooks);
}
