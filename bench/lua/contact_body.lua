-- A realistic, unique contact body: varied (accented) names, companies, titles; unique email per request.
local first = {"María", "José", "Zoë", "François", "Łukasz", "Søren", "Ingrid", "Mateo", "Aiko", "Chloé",
  "Björn", "Renée", "Nikolai", "Ana", "Oliver", "Émilie", "Jürgen", "Noah", "Olga", "Raúl", "Siobhán",
  "Thomas", "Yara", "Priya", "Kenji", "Fatima", "Liam", "Ágnes", "Dmitri", "Camila"}
local ascii_first = {"maria", "jose", "zoe", "francois", "lukasz", "soren", "ingrid", "mateo", "aiko", "chloe",
  "bjorn", "renee", "nikolai", "ana", "oliver", "emilie", "jurgen", "noah", "olga", "raul", "siobhan",
  "thomas", "yara", "priya", "kenji", "fatima", "liam", "agnes", "dmitri", "camila"}
local last = {"García", "Müller", "Åberg", "Núñez", "Kowalski", "Dubois", "O'Brien", "Nakamura", "Rossi",
  "Johansson", "Novák", "Fernández", "Schmidt", "Larsen", "Petrov"}
local ascii_last = {"garcia", "muller", "aberg", "nunez", "kowalski", "dubois", "obrien", "nakamura", "rossi",
  "johansson", "novak", "fernandez", "schmidt", "larsen", "petrov"}
local companies = {"Nordwind Logistik", "Acme Robotics", "Café Lumière", "Bluefin Analytics", "Helios Energía",
  "Kestrel Health", "Orbital Foods", "Zürich Re Partners"}
local domains = {"nordwind.de", "acme-robotics.com", "cafe-lumiere.fr", "bluefin.io", "helios-energia.es",
  "kestrel.health", "orbitalfoods.com", "zrp.ch"}
local titles = {"Account Executive", "Head of Procurement", "Software Engineer", "Operations Manager",
  "Chief Financial Officer", "Marketing Director", "Customer Success Lead", "Data Analyst"}
local counter = 0
-- BENCH_RUN is one per harness run, and a run starts wrk more than once with it (warm-up, then measured run), each
-- thread's counter from 0 again: this thread's start time and a random number keep those emails apart too.
local token = nil

function contact_body()
  counter = counter + 1
  if token == nil then
    token = string.format("%x%x", os.time(), math.random(0x7fffffff))
  end
  local f = math.random(#first)
  local l = math.random(#last)
  local c = math.random(#companies)
  return string.format(
    '{"email":"%s.%s.%s.%s.%d.%d@%s","first_name":"%s","last_name":"%s","company_name":"%s","job_title":"%s",' ..
    '"phone":"+49 30 %07d","status":"active","contact_type":"lead","tags":["loadtest"]}',
    ascii_first[f], ascii_last[l], os.getenv("BENCH_RUN"), token, tid, counter, domains[c], first[f],
    last[l], companies[c], titles[math.random(#titles)], math.random(9999999))
end
