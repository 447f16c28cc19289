using Microsoft.Extensions.Options;
using Notifications.Bounces;
using Notifications.Shared.Bounces;

namespace Notifications.UnitTests.Bounces;

public sealed class BounceReceiverOptionsValidatorTests
{
    private static IEnumerable<string> Failures(ReturnPathOptions returnPath, BounceReceiverOptions options) =>
        new BounceReceiverOptionsValidator(Options.Create(returnPath)).Validate(null, options).Failures ?? [];

    [Fact]
    public void Validate_NoBounceDomain_SaysTheReceiverNeedsOne() =>
        Assert.Contains(Failures(new ReturnPathOptions(), new BounceReceiverOptions()), f => f.StartsWith("Bounces:Domain must name the bounce domain", StringComparison.Ordinal));

    [Fact]
    public void Validate_CertificateWithoutKey_Fails() =>
        Assert.Contains(Failures(BounceCorpusOptions(), new BounceReceiverOptions { Certificate = "/nowhere.crt" }),
            f => f.Contains("Bounces:Certificate and Bounces:CertificateKey go together", StringComparison.Ordinal));

    [Fact]
    public void Validate_DomainAndDefaults_Passes() => Assert.Empty(Failures(BounceCorpusOptions(), new BounceReceiverOptions()));

    private static ReturnPathOptions BounceCorpusOptions() =>
        new() { Domain = BounceCorpus.Domain, Keys = [new ReturnPathKey { Id = "k1", Secret = Convert.ToBase64String(new byte[32]) }] };
}
