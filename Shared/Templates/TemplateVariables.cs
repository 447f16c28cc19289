using Fluid.Ast;
using Notifications.Shared.Contract;

namespace Notifications.Shared.Templates;

/// <summary>
/// The top-level variable names a template uses, read from Fluid's syntax tree: <c>{{ order.total | round }}</c> uses
/// <c>order</c>. Names the template defines itself are left out wherever they are used: loop variables
/// (<c>for item in items</c>: <c>item</c>; <c>forloop</c>, <c>tablerowloop</c>), <c>assign</c>, <c>capture</c>,
/// <c>increment</c> and <c>decrement</c>. A name is counted in every branch, taken or not, so the data must carry
/// it (a JSON null is fine). <c>admin templates put</c> stores them in the <c>variables</c> column; the client refuses
/// an enqueue whose data lacks one (docs/templates.md, "Variables checked at enqueue").
/// </summary>
public static class TemplateVariables
{
    private static readonly string[] LoopObjects = ["forloop", "tablerowloop"];

    /// <summary>The names <paramref name="template"/>'s subject and bodies use, sorted ordinally, without duplicates.</summary>
    public static IReadOnlyList<string> Of(CompiledTemplate template)
    {
        ArgumentNullException.ThrowIfNull(template);
        var collector = new Collector();
        foreach (var part in new[] { template.Subject, template.Text, template.Html })
        {
            if (part is not null)
            {
                collector.VisitTemplate(part);
            }
        }

        return collector.Used.Except(collector.Defined).Except(LoopObjects).Order(StringComparer.Ordinal).ToList();
    }

    /// <summary>The <c>template.variables</c> column's value for <paramref name="names"/> (a JSON array; <see cref="TemplateRules"/>).</summary>
    public static string Column(IEnumerable<string> names) => TemplateRules.Format(names);

    private sealed class Collector : AstVisitor
    {
        public HashSet<string> Used { get; } = new(StringComparer.Ordinal);

        public HashSet<string> Defined { get; } = new(StringComparer.Ordinal);

        protected override Expression VisitMemberExpression(MemberExpression memberExpression)
        {
            if (memberExpression.Segments.Count > 0 && memberExpression.Segments[0] is IdentifierSegment first)
            {
                Used.Add(first.Identifier);
            }

            return base.VisitMemberExpression(memberExpression);
        }

        // Every statement passes here (the base visitor's Visit dispatches each one, nested ones too).
        public override Statement Visit(Statement statement)
        {
            string? defined = statement switch
            {
                ForStatement s => s.Identifier,
                TableRowStatement s => s.Identifier,
                AssignStatement s => s.Identifier,
                CaptureStatement s => s.Identifier,
                IncrementStatement s => s.Identifier,
                DecrementStatement s => s.Identifier,
                _ => null,
            };
            if (defined is not null)
            {
                Defined.Add(defined);
            }

            return base.Visit(statement);
        }
    }
}
