using Notifications.Shared.Data.Operations;

namespace Notifications.UnitTests.Data;

public sealed class DeadLetterReasonClassTests
{
    [Theory]
    [InlineData("smtp permanent failure 550: 5.1.1 <ana@example.com>: Recipient address rejected", "smtp permanent failure #: #.#.# <<address>>: Recipient address rejected")]
    [InlineData("smtp permanent failure 550: 5.1.1 <bo.smith+x@mail.example.org>: Recipient address rejected", "smtp permanent failure #: #.#.# <<address>>: Recipient address rejected")]
    [InlineData("webhook endpoint 3f2504e0-4f89-11d3-9a0c-0305e82c3301 answered 410", "webhook endpoint <guid> answered #")]
    [InlineData("invalid recipient: empty", "invalid recipient: empty")]
    [InlineData("", "")]
    public void Of_ReasonsThatDifferByWhatVaries_OneClass(string reason, string expected)
    {
        Assert.Equal(expected, DeadLetterReasonClass.Of(reason));
    }

    [Fact]
    public void Of_ThousandCharacterReason_CutToTheColumnLength()
    {
        Assert.Equal(DeadLetterReasonClass.MaxLength, DeadLetterReasonClass.Of(new string('x', 1000)).Length);
    }
}
