using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Consumer.RateLimiting;

namespace Notifications.UnitTests.RateLimiting;

/// <summary>The <c>RateLimits</c> section: MTA-style rates, domains as keys, and a clear error naming the key.</summary>
public sealed class RateLimitSettingsTests
{
    [Theory]
    [InlineData("100/s", 100.0)]
    [InlineData("50 / sec", 50.0)]
    [InlineData("3000/min", 50.0)]
    [InlineData("3000/m", 50.0)]
    [InlineData("7200/h", 2.0)]
    [InlineData("0.5/s", 0.5)]
    [InlineData("14/second", 14.0)]
    // FCM's default quota per project (issue 29, item 4): RateLimits:Domains:fcm.googleapis.com = 600000/min.
    [InlineData("600000/min", 10_000.0)]
    public void TryParse_MtaStyleRate_GivesMessagesPerSecond(string text, double perSecond)
    {
        Assert.True(Rate.TryParse(text, out var rate, out var error), error);

        Assert.Equal(perSecond, rate.PerSecond, precision: 9);
        Assert.Equal(1 / perSecond, rate.Interval.TotalSeconds, precision: 6);
    }

    [Theory]
    [InlineData("100")]
    [InlineData("100/d")]
    [InlineData("fast")]
    [InlineData("-5/s")]
    [InlineData("0/s")]
    [InlineData("1000000/s")]
    [InlineData("")]
    public void TryParse_NotARate_Fails(string text)
    {
        Assert.False(Rate.TryParse(text, out _, out var error));
        Assert.NotNull(error);
    }

    [Fact]
    public void Settings_FromConfiguration_KeysDomainsLowerCaseAndPunycode()
    {
        var settings = Build(("RateLimits:Relay", "100/s"), ("RateLimits:Domains:GMail.com", "50/s"), ("RateLimits:Domains:bücher.example", "600/min"));

        Assert.Equal(100, settings.Relay!.Value.PerSecond);
        Assert.Equal(50, settings.Domains["gmail.com"].PerSecond);
        Assert.Equal(10, settings.Domains["xn--bcher-kva.example"].PerSecond);
        Assert.Equal("gmail.com", RateLimitSettings.DomainOf("Someone@GMAIL.COM"));
        Assert.Equal("xn--bcher-kva.example", RateLimitSettings.DomainOf("a@bücher.example"));
        Assert.Null(RateLimitSettings.DomainOf("no-domain@"));
    }

    [Fact]
    public void Settings_BadValues_FailAtStartNamingEachKey()
    {
        var ex = Assert.Throws<OptionsValidationException>(() => Build(
            ("RateLimits:Relay", "100 per second"), ("RateLimits:Domains:gmail.com", "50/x"), ("RateLimits:Domains:localhost", "5/s")));

        string message = string.Join(" | ", ex.Failures);
        Assert.Contains("RateLimits:Relay: '100 per second' is not a rate; write e.g. 100/s, 3000/min or 20000/h", message, StringComparison.Ordinal);
        Assert.Contains("RateLimits:Domains:gmail.com: '50/x' is not a rate", message, StringComparison.Ordinal);
        Assert.Contains("RateLimits:Domains:localhost: 'localhost' is not a domain name", message, StringComparison.Ordinal);
    }

    [Fact]
    public void Settings_NothingConfigured_NoLimit()
    {
        var settings = Build();

        Assert.False(settings.Any);
    }

    [Theory]
    [InlineData(200.0, 100, 20)]
    [InlineData(14.0, 100, 1)]
    [InlineData(1.0, 100, 1)]
    [InlineData(100_000.0, 100, 1000)]
    public void LeaseSize_IsLeaseDurationOfTheRate_From1To1000(double perSecond, int leaseMs, int expected)
    {
        Assert.Equal(expected, FleetRateLimiter.LeaseSize(new Rate(perSecond, TimeSpan.FromSeconds(1)), TimeSpan.FromMilliseconds(leaseMs)));
    }

    private static RateLimitSettings Build(params (string Key, string Value)[] settings)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(settings.Select(s => new KeyValuePair<string, string?>(s.Key, s.Value)))
            .Build();
        var services = new ServiceCollection().AddSingleton<IConfiguration>(configuration);
        services.AddOptions<RateLimitOptions>().BindConfiguration(RateLimitOptions.SectionName).ValidateDataAnnotations();
        services.AddSingleton<IValidateOptions<RateLimitOptions>, RateLimitOptionsValidator>();
        services.AddSingleton<RateLimitSettings>();
        return services.BuildServiceProvider().GetRequiredService<RateLimitSettings>();
    }
}
