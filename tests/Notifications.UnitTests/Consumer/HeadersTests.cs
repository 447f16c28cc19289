using System.Text;
using Notifications.Consumer.Pipeline;

namespace Notifications.UnitTests.Consumer;

public sealed class HeadersTests
{
    [Theory]
    [InlineData(3)]
    [InlineData(3L)]
    [InlineData((short)3)]
    [InlineData((byte)3)]
    public void ReadInt_AnyAmqpIntegerType_ReadsTheValue(object value)
    {
        var headers = new Dictionary<string, object?> { [Headers.Attempt] = value };

        Assert.Equal(3, Headers.ReadInt(headers, Headers.Attempt, 1));
    }

    [Fact]
    public void ReadInt_StringBytes_Parsed() =>
        Assert.Equal(4, Headers.ReadInt(new Dictionary<string, object?> { ["x"] = Encoding.UTF8.GetBytes("4") }, "x", 1));

    [Fact]
    public void ReadInt_MissingOrGarbage_Fallback()
    {
        Assert.Equal(1, Headers.ReadInt(null, Headers.Attempt, 1));
        Assert.Equal(1, Headers.ReadInt(new Dictionary<string, object?> { [Headers.Attempt] = "three" }, Headers.Attempt, 1));
        Assert.Equal(1, Headers.ReadInt(new Dictionary<string, object?> { [Headers.Attempt] = long.MaxValue }, Headers.Attempt, 1));
    }
}
