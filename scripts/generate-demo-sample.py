#!/usr/bin/env python3
"""Regenerates demo/signup-sample.csv: 320 realistic sign-ups, about one in five with one
realistic mistake (bad Luhn digit, email typos, short phone, under-age, a letter O for a zero,
4-digit CVV, month 13, long-expired card, missing or digit-bearing name, mismatched emails).
Deterministic (fixed seed). Run `make embed` afterwards."""
import os
import random, csv, io, unicodedata
rng = random.Random(20261129)
first = ["Ada","Grace","Alan","Zoë","José","Mei","Aiko","Olusegun","Fatima","Liam","Noah","Emma","Olivia","Ava","Sophia","Mateo","Lucía","Chidi","Ingrid","Søren","Anaïs","Björn","Priya","Arjun","Yuki","Hana","Omar","Leila","Tomás","Niamh","Seán","Marta","Dmitri","Katarzyna","Wei","Jun","Amara","Kwame","Elif","Mehmet"]
last = ["Lovelace","Hopper","Turing","O'Brien","Núñez-García","Chen","Tanaka","Adeyemi","Haddad","Murphy","Smith","Johnson","Williams","Brown","García","Martínez","Okafor","Larsen","Kierkegaard","Dubois","Andersson","Patel","Sharma","Sato","Kim","Farouk","Rahimi","Silva","Ní Bhriain","Kowalska","Ivanov","Wang","Li","Mensah","Yılmaz","Demir","Rossi","Müller","Schmidt","Kovač"]
domains = ["example.com","mail.example.org","example.net","post.example.co.uk","example.io"]
def luhn_digit(body):
    tot=0
    for i,c in enumerate(reversed(body)):
        d=int(c)
        if i%2==0:
            d*=2
            if d>9:d-=9
        tot+=d
    return str((10-tot%10)%10)
def card():
    prefix = rng.choice(["4","51","52","53","54","55","6011"])
    body = prefix + "".join(rng.choice("0123456789") for _ in range(15-len(prefix)))
    n = body + luhn_digit(body)
    style = rng.random()
    if style < 0.6: return " ".join(n[i:i+4] for i in range(0,16,4))
    if style < 0.85: return n
    return "-".join(n[i:i+4] for i in range(0,16,4))
def phone():
    a = rng.randint(201,989); b = rng.randint(200,999); c = rng.randint(0,9999)
    s = rng.random()
    if s < 0.4: return f"({a}) {b}-{c:04d}"
    if s < 0.7: return f"{a}{b}{c:04d}"
    if s < 0.85: return f"{a}.{b}.{c:04d}"
    return f"{a}-{b}-{c:04d}"
def ascii_local(f,l):
    s=unicodedata.normalize("NFKD",(f+"."+l).lower())
    s=s.replace("ø","o").replace("ı","i")
    return "".join(ch for ch in s if (ch.isascii() and (ch.isalnum() or ch in ".-")))
rows=[]
header=["name","email","email-again","phone","age","card","expires","cvv"]
defects = ["luhn","email","email-again","phone","age-low","age-word","card-letter","cvv","exp-month","exp-old","name-missing","name-digit","age-decimal","email-space"]
for i in range(320):
    f=rng.choice(first); l=rng.choice(last)
    name = f"{f} {l}"
    if rng.random()<0.1: name = name.lower()
    if rng.random()<0.05: name = "  " + name + " "
    email = f"{ascii_local(f,l)}{rng.choice(['','',str(rng.randint(1,99))])}@{rng.choice(domains)}"
    row = {"name":name,"email":email,"email-again":email,"phone":phone() if rng.random()<0.92 else "",
           "age":str(rng.randint(18,90)),"card":card(),
           "expires":f"{rng.randint(1,12):02d}/{rng.randint(27,34)}","cvv":f"{rng.randint(0,999):03d}"}
    if rng.random() < 0.2:
        d = rng.choice(defects)
        if d=="luhn":
            digits=row["card"]; row["card"]=digits[:-1]+str((int(digits[-1])+1)%10)
        elif d=="email":
            row["email"]=row["email"].replace("@","@@",1) if rng.random()<0.5 else row["email"].rsplit(".",1)[0]; row["email-again"]=row["email"]
        elif d=="email-again": row["email-again"]=row["email"].replace(".","",1)
        elif d=="phone": row["phone"]=row["phone"][:-1] if row["phone"] else "555-123"
        elif d=="age-low": row["age"]=str(rng.randint(12,17))
        elif d=="age-word": row["age"]=rng.choice(["thirty","forty-two","n/a"])
        elif d=="card-letter": row["card"]=row["card"][:5]+"O"+row["card"][6:]
        elif d=="cvv": row["cvv"]=f"{rng.randint(1000,9999)}"
        elif d=="exp-month": row["expires"]=f"13/{rng.randint(27,30)}"
        elif d=="exp-old": row["expires"]=f"{rng.randint(1,12):02d}/0{rng.randint(1,9)}"
        elif d=="name-missing": row["name"]=""
        elif d=="name-digit": row["name"]=row["name"].split()[0]+"2 "+row["name"].split()[-1]
        elif d=="age-decimal": row["age"]="34.5"
        elif d=="email-space": row["email"]=row["email"].replace("@"," @"); row["email-again"]=row["email"]
    rows.append([row[h] for h in header])
out=io.StringIO()
w=csv.writer(out, lineterminator="\n")
w.writerow(header); w.writerows(rows)
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "demo", "signup-sample.csv"), "w").write(out.getvalue())
