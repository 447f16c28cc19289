using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Shared.Bounces;
using Notifications.Shared.Hosting;

namespace Notifications.UnitTests.Bounces;

public sealed class ReturnPathTests
{
    private static readonly ReturnPathKey Old = new() { Id = "k1", Secret = Convert.ToBase64String(Enumerable.Range(1, 32).Select(i => (byte)i).ToArray()) };
    private static readonly ReturnPathKey New = new() { Id = "k2", Secret = Convert.ToBase64String(Enumerable.Range(101, 32).Select(i => (byte)i).ToArray()) };

    private static ReturnPath Codec(params ReturnPathKey[] keys) => new(new ReturnPathOptions { Domain = "bounces.example.com", Keys = keys });

    [Theory]
    [InlineData(1L)]
    [InlineData(42L)]
    [InlineData(long.MaxValue)]
    public void TryRead_AddressItMade_ItsNotificationId(long id)
    {
        var codec = Codec(New, Old);
        string address = codec.For(id);

        Assert.True(codec.TryRead(address, out long read));
        Assert.Equal(id, read);
        Assert.Matches("^bounces\\+[0-9]+\\.k2[a-z2-7]{16}@bounces\\.example\\.com$", address);
        Assert.True(address.IndexOf('@', StringComparison.Ordinal) <= 64);
    }

    [Fact]
    public void TryRead_UpperCasedOrInAngleBrackets_StillRead()
    {
        var codec = Codec(Old);
        string address = codec.For(7);

        Assert.True(codec.TryRead($"<{address.ToUpperInvariant()}>", out long read));
        Assert.Equal(7, read);
    }

    [Fact]
    public void TryRead_SignedWithTheOldKeyAfterRotation_StillRead()
    {
        string address = Codec(Old).For(99);

        Assert.True(Codec(New, Old).TryRead(address, out long read));
        Assert.Equal(99, read);
        Assert.False(Codec(New).TryRead(address, out _));
    }

    [Fact]
    public void TryRead_IdChangedUnderTheSameMac_False()
    {
        var codec = Codec(Old);
        string address = codec.For(1000);

        Assert.False(codec.TryRead(address.Replace("+1000.", "+1001.", StringComparison.Ordinal), out long read));
        Assert.Equal(0, read);
    }

    [Fact]
    public void TryRead_OneMacCharacterChanged_False()
    {
        var codec = Codec(Old);
        string address = codec.For(5);
        int last = address.IndexOf('@', StringComparison.Ordinal) - 1;
        char other = address[last] == 'a' ? 'b' : 'a';

        Assert.False(codec.TryRead(address[..last] + other + address[(last + 1)..], out _));
    }

    [Theory]
    [InlineData("")]
    [InlineData(null)]
    [InlineData("user@example.com")]
    [InlineData("bounces@bounces.example.com")]
    [InlineData("bounces+@bounces.example.com")]
    [InlineData("bounces+12@bounces.example.com")]
    [InlineData("bounces+12.k1@bounces.example.com")]
    [InlineData("bounces+abc.k1aaaaaaaaaaaaaaaa@bounces.example.com")]
    [InlineData("bounces+-1.k1aaaaaaaaaaaaaaaa@bounces.example.com")]
    [InlineData("bounces+99999999999999999999.k1aaaaaaaaaaaaaaaa@bounces.example.com")]
    [InlineData("bounces+0.k1aaaaaaaaaaaaaaaa@bounces.example.com")]
    public void TryRead_Malformed_False(string? address) => Assert.False(Codec(Old).TryRead(address, out _));

    [Fact]
    public void TryRead_OtherDomainOrPrefixOrLeadingZero_False()
    {
        var codec = Codec(Old);
        string address = codec.For(12);

        Assert.False(codec.TryRead(address.Replace("@bounces.example.com", "@example.org", StringComparison.Ordinal), out _));
        Assert.False(codec.TryRead("x" + address, out _));
        Assert.False(codec.TryRead(address.Replace("+12.", "+012.", StringComparison.Ordinal), out _));
    }

    [Fact]
    public void TryRead_UnknownKeyId_False()
    {
        string address = Codec(Old).For(3);

        Assert.False(Codec(New).TryRead(address, out _));
    }

    [Fact]
    public void AddReturnPath_FromConfiguration_ReadsWhatItMakes()
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Bounces:Domain"] = "bounces.example.com",
            ["Bounces:Keys:0:Id"] = New.Id,
            ["Bounces:Keys:0:Secret"] = New.Secret,
            ["Bounces:Keys:1:Id"] = Old.Id,
            ["Bounces:Keys:1:Secret"] = Old.Secret,
        }).Build();
        using var provider = new ServiceCollection().AddSingleton<IConfiguration>(configuration).AddReturnPath().BuildServiceProvider();

        var codec = provider.GetRequiredService<ReturnPath>();

        Assert.Equal(2, provider.GetRequiredService<IOptions<ReturnPathOptions>>().Value.Keys.Count);
        Assert.StartsWith("bounces+8.k2", codec.For(8), StringComparison.Ordinal);
        Assert.True(codec.TryRead(Codec(Old).For(8), out _));
    }
}
