using Notifications.Shared.Bounces;

namespace Notifications.UnitTests.Bounces;

public sealed class ReturnPathOptionsValidatorTests
{
    private static readonly string Secret = Convert.ToBase64String(new byte[32]);

    private static IEnumerable<string> Failures(ReturnPathOptions options) =>
        new ReturnPathOptionsValidator().Validate(null, options).Failures ?? [];

    [Fact]
    public void Validate_NothingConfigured_Passes() => Assert.Empty(Failures(new ReturnPathOptions()));

    [Fact]
    public void Validate_DomainAndOneGoodKey_Passes() =>
        Assert.Empty(Failures(new ReturnPathOptions { Domain = "bounces.example.com", Keys = [new() { Id = "k1", Secret = Secret }] }));

    [Fact]
    public void Validate_ShortSecret_NamesTheKey()
    {
        var failures = Failures(new ReturnPathOptions
        {
            Domain = "bounces.example.com",
            Keys = [new() { Id = "k1", Secret = Secret }, new() { Id = "old", Secret = Convert.ToBase64String(new byte[16]) }],
        });

        Assert.Contains(failures, f => f.Contains("Bounces:Keys:1:Secret (key 'old')", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("")]
    [InlineData("K1")]
    [InlineData("k.1")]
    [InlineData("toolongid")]
    public void Validate_BadKeyId_NamesIt(string id)
    {
        var failures = Failures(new ReturnPathOptions { Domain = "bounces.example.com", Keys = [new() { Id = id, Secret = Secret }] });

        Assert.Contains(failures, f => f.Contains($"Bounces:Keys:0:Id '{id}'", StringComparison.Ordinal));
    }

    [Fact]
    public void Validate_SameKeyIdTwice_NamesTheSecond()
    {
        var failures = Failures(new ReturnPathOptions
        {
            Domain = "bounces.example.com",
            Keys = [new() { Id = "k1", Secret = Secret }, new() { Id = "k1", Secret = Secret }],
        });

        Assert.Contains(failures, f => f.Contains("Bounces:Keys:1:Id 'k1' is used by an earlier key", StringComparison.Ordinal));
    }

    [Fact]
    public void Validate_DomainWithoutKeys_Fails() =>
        Assert.Contains(Failures(new ReturnPathOptions { Domain = "bounces.example.com" }), f => f.Contains("Bounces:Keys is empty", StringComparison.Ordinal));

    [Fact]
    public void Validate_KeysWithoutDomain_Fails() =>
        Assert.Contains(Failures(new ReturnPathOptions { Keys = [new() { Id = "k1", Secret = Secret }] }), f => f.Contains("Bounces:Domain is empty", StringComparison.Ordinal));

    [Fact]
    public void Validate_PrefixWithPlus_Fails() =>
        Assert.Contains(Failures(new ReturnPathOptions { LocalPrefix = "b+x" }), f => f.Contains("Bounces:LocalPrefix", StringComparison.Ordinal));
}
