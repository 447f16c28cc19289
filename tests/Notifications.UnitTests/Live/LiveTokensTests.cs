using System.Security.Cryptography;
using Microsoft.Extensions.Options;
using Notifications.Client.Live;
using Notifications.Gateway;

namespace Notifications.UnitTests.Live;

/// <summary>A token the client package mints is one the gateway takes, for that subscriber; a weak key or a long life is refused at once.</summary>
public sealed class LiveTokensTests
{
    private static readonly string Key = Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));

    [Fact]
    public async Task Mint_CheckedByTheGateway_TheSubscriber()
    {
        var check = new LiveTokenCheck(Options.Create(new GatewayOptions { TokenKey = Key }));

        Assert.Equal(("ana-1", (string?)null), await check.ValidateAsync(LiveTokens.Mint(Key, "ana-1", TimeSpan.FromMinutes(5))));
    }

    [Fact]
    public async Task Mint_AnotherAudienceOrKey_RefusedByTheGateway()
    {
        var check = new LiveTokenCheck(Options.Create(new GatewayOptions { TokenKey = Key }));
        string otherKey = Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));

        Assert.Equal((null, "the token is not valid"), await check.ValidateAsync(LiveTokens.Mint(Key, "ana-1", TimeSpan.FromMinutes(5), audience: "elsewhere")));
        Assert.Equal((null, "the token's signature is not valid"), await check.ValidateAsync(LiveTokens.Mint(otherKey, "ana-1", TimeSpan.FromMinutes(5))));
    }

    [Fact]
    public void Mint_ShortKeyNoSubscriberOrLongLife_Refused()
    {
        string shortKey = Convert.ToBase64String(RandomNumberGenerator.GetBytes(16));

        Assert.Throws<ArgumentException>(() => LiveTokens.Mint(shortKey, "ana-1", TimeSpan.FromMinutes(5)));
        Assert.Throws<ArgumentException>(() => LiveTokens.Mint(Key, " ", TimeSpan.FromMinutes(5)));
        Assert.Throws<ArgumentException>(() => LiveTokens.Mint(Key, "ana-1", TimeSpan.FromDays(2)));
        Assert.Throws<ArgumentException>(() => LiveTokens.Mint(Key, "ana-1", TimeSpan.Zero));
    }
}
