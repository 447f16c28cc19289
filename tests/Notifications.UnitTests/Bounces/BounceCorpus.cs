using System.Text;
using Notifications.Shared.Bounces;

namespace Notifications.UnitTests.Bounces;

/// <summary>
/// The DSN and ARF samples of Bounces/Corpus (RFC 3464 and RFC 5965's examples, and the shapes Postfix, Exim, Office 365,
/// Gmail, Yahoo and Amazon SES send), read with <c>{{RETURN_PATH}}</c> replaced by a signed return path, and the key they
/// were signed with.
/// </summary>
internal static class BounceCorpus
{
    public const string Domain = "bounces.example.com";

    /// <summary>Where feedback loops send complaints: an address of the bounce domain that names no notification.</summary>
    public const string FeedbackAddress = "fbl@" + Domain;

    public static readonly ReturnPath Codec = new(new ReturnPathOptions
    {
        Domain = Domain,
        Keys = [new ReturnPathKey { Id = "k1", Secret = Convert.ToBase64String(Enumerable.Range(7, 32).Select(i => (byte)i).ToArray()) }],
    });

    public static string PathOf(string file) => Path.Combine(AppContext.BaseDirectory, "Bounces", "Corpus", file);

    /// <summary>The sample's bytes, its return path (and its Original-Mail-From) being notification <paramref name="id"/>'s.</summary>
    public static byte[] Read(string file, long id) => Encoding.UTF8.GetBytes(File.ReadAllText(PathOf(file)).Replace("{{RETURN_PATH}}", Codec.For(id), StringComparison.Ordinal));
}
