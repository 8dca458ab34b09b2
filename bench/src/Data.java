import java.text.Normalizer;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Realistic, varied and reproducible request bodies for the seed: record {@code i} of a kind is always the same
 * body (its random generator is seeded with {@code i}), so two runs seed the same data.
 */
final class Data {

    private Data() {
    }

    static final List<String> FIRST = List.of("María", "José", "Zoë", "François", "Łukasz", "Søren", "Ingrid",
            "Mateo", "Aiko", "Chloé", "Björn", "Renée", "Nikolai", "Ana", "Oliver", "Émilie", "Jürgen", "Noah",
            "Olga", "Raúl", "Siobhán", "Thomas", "Yara", "Priya", "Kenji", "Fatima", "Liam", "Ágnes", "Dmitri",
            "Camila", "Hélène", "Lars", "Ayşe", "Giulia", "Mohammed", "Sofía", "Pedro", "Anja", "Ólafur", "Mei",
            "Jan", "Eva", "Marco", "Léa", "Tomás", "Hannah", "Ivan", "Nora", "Çağla", "Benedikt", "Amélie",
            "Juan", "Freya", "Ravi", "Elif", "Paulo", "Katarzyna", "Sven", "Inés", "David", "Sarah", "Wei",
            "Ahmed", "Lucía", "Matthias", "Zofia", "Andrés", "Emma", "Mikael", "Adèle", "Georg", "Ximena",
            "Henrik", "Chiara", "Kwame", "Małgorzata", "Rafael", "Isabel", "Tuomas", "Jörg");
    static final List<String> LAST = List.of("García", "Müller", "Åberg", "Núñez", "Kowalski", "Dubois",
            "O'Brien", "Nakamura", "Rossi", "Johansson", "Novák", "Fernández", "Schmidt", "Larsen", "Petrov",
            "Martínez", "Schäfer", "Lefèvre", "Wiśniewski", "Jensen", "Yılmaz", "Costa", "Smith", "Johnson",
            "Brown", "Williams", "Tanaka", "Kim", "Nguyen", "Ødegaard", "Sánchez", "Hoffmann", "Moreau",
            "Lindqvist", "Horváth", "Dvořák", "Ferreira", "Bianchi", "Kaya", "Papadopoulos", "Van der Berg",
            "De Vries", "Fischer", "Weiß", "Żak", "López", "Gómez", "Rodríguez", "Hernández", "Jiménez",
            "Bergström", "Nieminen", "Virtanen", "Łapiński", "Öztürk", "Ivanova", "Singh", "Patel", "Chen",
            "Wang", "Li", "Murphy", "Kelly", "Byrne", "Walsh", "Ricci", "Marino", "Greco", "Bauer", "Wagner",
            "Becker", "Koch", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Zimmermann", "Krüger",
            "Hartmann");
    static final List<String> COMPANIES = List.of("Nordwind Logistik", "Acme Robotics", "Café Lumière",
            "Bluefin Analytics", "Helios Energía", "Kestrel Health", "Orbital Foods", "Zürich Re Partners",
            "Glacier Software", "Maison Étoile", "Fjord Maritime", "Sakura Systems", "Atlas Bauwerk",
            "Tierra Verde Agro", "Polaris Media", "Quantum Ledger", "Ember & Oak", "Brightline Transit",
            "Cobalt Mining", "Danube Pharma", "Evergreen Retail", "Falcon Aerospace", "Granite Insurance",
            "Harbor Freight Lines", "Iberia Textil", "Jade Hospitality", "Kraków Steelworks", "Lumen Optics",
            "Meridian Bank", "Northstar Telecom", "Olympus Fitness", "Pacific Seafoods", "Quartz Labs",
            "Riverside Clinics", "Solaris Power", "Tundra Outdoor", "Umbra Security", "Vega Motors",
            "Willow Education", "Xenon Chemicals", "Yukon Timber", "Zephyr Airlines", "Alpenglow Tourism",
            "Baltic Shipping", "Canyon Water", "Delta Payroll", "Echo Acoustics", "Fiesta Catering",
            "Gulfstream Energy", "Horizon Realty", "Indigo Design", "Juniper Networks Lab", "Keystone Legal",
            "Lotus Cosmetics", "Mistral Wines", "Nimbus Cloud", "Onyx Jewellery", "Prairie Grain",
            "Quill Publishing", "Rosewood Furniture");
    static final List<String> TLDS = List.of("com", "de", "fr", "es", "io", "co.uk", "nl", "se", "it", "ch");
    static final List<String> TITLES = List.of("Account Executive", "Head of Procurement", "Software Engineer",
            "Operations Manager", "Chief Financial Officer", "Marketing Director", "Customer Success Lead",
            "Data Analyst", "Sales Manager", "VP Engineering", "Office Manager", "Product Manager",
            "IT Administrator", "Purchasing Agent", "Chief Executive Officer", "HR Business Partner",
            "Logistics Coordinator", "Senior Accountant", "Legal Counsel", "Plant Manager", "Buyer",
            "Solutions Architect", "Research Scientist", "Head of Sales", "Project Manager", "CTO",
            "Business Development Manager", "Supply Chain Director", "Quality Engineer", "Facilities Manager",
            "Brand Manager", "Controller", "Recruiter", "Security Engineer", "Store Manager",
            "Regional Director", "Customer Support Agent", "Training Coordinator", "Partner Manager",
            "Procurement Specialist");
    static final List<String> CITIES = List.of("Berlin|DE", "München|DE", "Paris|FR", "Lyon|FR", "Madrid|ES",
            "Sevilla|ES", "Stockholm|SE", "Malmö|SE", "Kraków|PL", "Zürich|CH", "Genève|CH", "Milano|IT",
            "Amsterdam|NL", "London|GB", "Dublin|IE", "Lisboa|PT", "København|DK", "Helsinki|FI", "Wien|AT",
            "Praha|CZ", "Istanbul|TR", "Tokyo|JP", "São Paulo|BR", "México City|MX", "Toronto|CA",
            "New York|US", "Austin|US");
    static final List<String> SOURCES = List.of("website", "referral", "trade show", "cold call", "partner",
            "webinar", "linkedin");
    static final List<String> INDUSTRIES = List.of("logistics", "manufacturing", "software", "healthcare",
            "retail", "finance", "energy", "hospitality", "education", "construction");
    static final List<String> PRODUCTS = List.of("platform licence", "support renewal", "onboarding package",
            "enterprise upgrade", "pilot", "expansion", "consulting block", "hardware refresh");
    static final List<String> TASK_VERBS = List.of("Fix", "Implement", "Review", "Document", "Refactor",
            "Test", "Design", "Investigate", "Migrate", "Optimise");
    static final List<String> TASK_OBJECTS = List.of("login flow", "invoice export", "search indexing",
            "dashboard widgets", "CSV import", "email templates", "API pagination", "mobile layout",
            "permissions matrix", "audit trail", "webhook retries", "report scheduler", "onboarding wizard",
            "billing cycle", "notification settings", "data retention job");
    static final List<String> TICKET_SUBJECTS = List.of("Cannot log in after password reset",
            "Invoice shows wrong VAT rate", "Export to CSV times out", "Request: add SSO for our team",
            "Deleted a project by mistake", "Email notifications arrive twice", "API returns 429 too often",
            "Dashboard is slow on Mondays", "Wrong currency on quote", "How do I invite a colleague?");

    static String json(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    static String ascii(String s) {
        String folded = Normalizer.normalize(s.replace("ł", "l").replace("Ł", "L").replace("ø", "o")
                .replace("Ø", "O").replace("ß", "ss").replace("ı", "i"), Normalizer.Form.NFD);
        return folded.replaceAll("\\p{M}", "").replaceAll("[^A-Za-z0-9]", "").toLowerCase();
    }

    static <T> T pick(SplittableRandom r, List<T> list) {
        return list.get(r.nextInt(list.size()));
    }

    /** Contact {@code i}: unique email; status mostly active; accented names; realistic titles and companies. */
    static String contact(int i) {
        SplittableRandom r = new SplittableRandom(i * 31L + 7);
        String first = pick(r, FIRST);
        String last = pick(r, LAST);
        int company = r.nextInt(COMPANIES.size());
        String domain = ascii(COMPANIES.get(company)) + "." + TLDS.get(company % TLDS.size());
        int s = r.nextInt(100);
        String status = s < 70 ? "active" : s < 85 ? "inactive" : s < 95 ? "pending" : "blocked";
        String[] city = pick(r, CITIES).split("\\|");
        return "{\"email\":" + json(ascii(first) + "." + ascii(last) + i + "@"
                + domain)
                + ",\"first_name\":" + json(first) + ",\"last_name\":" + json(last)
                + ",\"company_name\":" + json(COMPANIES.get(company)) + ",\"job_title\":" + json(pick(r, TITLES))
                + ",\"phone\":" + json(String.format("+%d %d %07d", 30 + r.nextInt(20), 10 + r.nextInt(90),
                        r.nextInt(10_000_000)))
                + ",\"status\":\"" + status + "\""
                + ",\"contact_type\":\"" + pick(r, List.of("lead", "prospect", "customer", "partner", "new")) + "\""
                + ",\"lead_source\":" + json(pick(r, SOURCES)) + ",\"industry\":" + json(pick(r, INDUSTRIES))
                + ",\"city\":" + json(city[0]) + ",\"country\":\"" + city[1] + "\""
                + ",\"tags\":[" + (r.nextInt(3) == 0 ? "\"vip\"," : "") + json(pick(r, SOURCES)) + "]"
                + (r.nextInt(4) == 0 ? ",\"notes\":" + json("Met at " + pick(r, SOURCES) + "; interested in "
                        + pick(r, PRODUCTS) + ".") : "")
                + "}";
    }

    /** Deal {@code i}: consistent status/stage, values from 500 to 250,000, linked to a seeded contact. */
    static String deal(int i, UUID contactId, List<UUID> assignees) {
        SplittableRandom r = new SplittableRandom(i * 131L + 3);
        int s = r.nextInt(100);
        String status = s < 60 ? "open" : s < 70 ? "on_hold" : s < 85 ? "closed_won" : "closed_lost";
        String stage = status.startsWith("closed") ? status
                : pick(r, List.of("discovery", "qualified", "proposal", "negotiation"));
        return "{\"title\":" + json(pick(r, COMPANIES) + " – " + pick(r, PRODUCTS))
                + ",\"value\":" + (500 + r.nextInt(249_500)) + "." + String.format("%02d", r.nextInt(100))
                + ",\"currency\":\"" + pick(r, List.of("EUR", "USD", "GBP", "CHF")) + "\""
                + ",\"status\":\"" + status + "\",\"stage\":\"" + stage + "\""
                + ",\"probability\":" + r.nextInt(101)
                + ",\"expected_close_date\":\"2026-" + String.format("%02d-%02d", 1 + r.nextInt(12), 1 + r.nextInt(28))
                + "\""
                + (contactId == null ? "" : ",\"contact_id\":\"" + contactId + "\"")
                + ",\"assigned_to\":\"" + pick(r, assignees) + "\""
                + ",\"source\":" + json(pick(r, SOURCES))
                + (status.equals("closed_lost") ? ",\"lost_reason\":\"budget\"" : "")
                + ",\"tags\":[" + json(pick(r, INDUSTRIES)) + "]}";
    }

    static String project(int i) {
        SplittableRandom r = new SplittableRandom(i * 17L + 1);
        return "{\"name\":" + json(pick(r, COMPANIES) + " " + pick(r, PRODUCTS) + " #" + (i + 1))
                + ",\"status\":\"" + pick(r, List.of("active", "planned", "active", "paused")) + "\""
                + ",\"priority\":\"" + pick(r, List.of("low", "medium", "high", "urgent")) + "\""
                + ",\"start_date\":\"2026-01-" + String.format("%02d", 1 + r.nextInt(28)) + "\""
                + ",\"end_date\":\"2026-12-" + String.format("%02d", 1 + r.nextInt(28)) + "\"}";
    }

    static String task(int i, UUID projectId) {
        SplittableRandom r = new SplittableRandom(i * 97L + 5);
        String title = pick(r, TASK_VERBS) + " " + pick(r, TASK_OBJECTS);
        return "{\"kind\":\"task\",\"title\":" + json(title + " (" + (i + 1) + ")")
                + ",\"description\":" + json("As discussed in the weekly sync: " + title.toLowerCase()
                        + " for " + pick(r, COMPANIES) + ". Acceptance: reviewed and deployed.")
                + ",\"status\":\"" + pick(r, List.of("backlog", "todo", "in_progress", "in_review", "done")) + "\""
                + ",\"priority\":\"" + pick(r, List.of("none", "low", "medium", "high", "urgent")) + "\""
                + ",\"project_id\":\"" + projectId + "\""
                + ",\"estimate_hours\":" + (1 + r.nextInt(40)) + "}";
    }

    static String ticket(int i) {
        SplittableRandom r = new SplittableRandom(i * 53L + 11);
        return "{\"kind\":\"ticket\",\"title\":" + json(pick(r, TICKET_SUBJECTS))
                + ",\"description\":" + json("Reported by " + pick(r, FIRST) + " " + pick(r, LAST) + " of "
                        + pick(r, COMPANIES) + ".")
                + ",\"status\":\"" + pick(r, List.of("new", "open", "pending", "on_hold", "solved", "closed")) + "\""
                + ",\"priority\":\"" + pick(r, List.of("none", "low", "medium", "high", "urgent")) + "\"}";
    }
}
